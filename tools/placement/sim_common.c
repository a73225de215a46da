/* Shared by `placement simulate` and `placement demo`: run several policies
 * on one workload, print the comparison table, write the CSVs and the SVG. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <placement/placement.h>
#include "commands.h"

int sim_make_dir(const char *dir)
{
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "placement: cannot create directory %s: %s\n", dir, strerror(errno));
        return 1;
    }
    return 0;
}

static int write_csv(const char *path, const pl_sim_result *res,
                     pl_status (*writer)(const pl_sim_result *, FILE *))
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "placement: cannot write %s: %s\n", path, strerror(errno));
        return 1;
    }
    pl_status st = writer(res, f);
    if (fclose(f) != 0 || st) {
        fprintf(stderr, "placement: writing %s failed\n", path);
        return 1;
    }
    return 0;
}

/* The progress bar on stderr (a terminal only): which policy of how many,
 * a bar of the jobs settled, and the simulated time. */
typedef struct progress_bar {
    const char *name, *policy;
    int index, count;
    int last_permille;
} progress_bar;

#define BAR_WIDTH 30

static void draw_bar(void *data, int32_t settled, int32_t total, double sim_time)
{
    progress_bar *b = data;
    int permille = total > 0 ? (int)((int64_t)settled * 1000 / total) : 1000;
    /* Redraw every 0.5 %: a terminal is slow next to a fast simulation. */
    if (b->last_permille >= 0 && permille / 5 == b->last_permille / 5 && settled < total)
        return;
    b->last_permille = permille;
    char bar[BAR_WIDTH + 1];
    int fill = permille * BAR_WIDTH / 1000;
    for (int i = 0; i < BAR_WIDTH; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[BAR_WIDTH] = '\0';
    fprintf(stderr, "\r[%d/%d] %s: %-13s [%s] %5.1f%% %d/%d jobs, t = %.0f s ", b->index, b->count, b->name,
            b->policy, bar, permille / 10.0, (int)settled, (int)total, sim_time);
    fflush(stderr);
}

int sim_compare(const char *name, const pl_topology *topo, const pl_jobset *jobs,
                const char *const *policies, int npol, const sim_settings *set, sim_row *rows)
{
    pl_sim_result **res = calloc((size_t)npol, sizeof *res);
    if (!res)
        return 1;
    int rc = 0, tty = isatty(STDERR_FILENO) && !set->quiet;
    for (int p = 0; p < npol && !rc; p++) {
        progress_bar bar = {name, policies[p], p + 1, npol, -1};
        if (tty)
            draw_bar(&bar, 0, pl_jobset_count(jobs), 0);
        pl_sim_opts o;
        pl_sim_opts_init(&o);
        o.policy.policy = policies[p];
        o.policy.seed = set->seed;
        if (set->sa_opts && !strcmp(policies[p], "sa-placement"))
            o.policy.policy_opts = set->sa_opts;
        /* Under the usage model gpu-qos predicts co-tenants as the simulator
         * slows them: the same patterns, the same factor for pairs without
         * (doc/simulator.md sec. 3c). */
        pl_gpu_qos_opts qos;
        pl_gpu_qos_opts_init(&qos);
        if (set->gpu_share_model == PL_SIM_GPU_SHARE_USAGE && !strcmp(policies[p], "gpu-qos")) {
            qos.model = PL_GPU_QOS_MODEL_USAGE;
            qos.usage_traces = set->usage_traces;
            qos.share_factor = set->gpu_share_factor > 0 ? set->gpu_share_factor : PL_SIM_GPU_SHARE_FACTOR;
            o.policy.policy_opts = &qos;
        }
        if (set->utility_set)
            o.policy.utility.form = set->utility;
        if (set->interval > 0)
            o.interval = set->interval;
        o.runtime = set->runtime;
        o.job_priority = set->priority;
        o.job_startup_delay = set->startup;
        o.startup_delay = set->startup_delay;
        o.failures = set->failures;
        o.nfailures = set->nfailures;
        if (set->gpu_share_factor > 0)
            o.gpu_share_factor = set->gpu_share_factor;
        o.gpu_share_model = set->gpu_share_model;
        o.usage_traces = set->usage_traces;
        if (tty) {
            o.progress = draw_bar;
            o.progress_data = &bar;
        }
        pl_sim *sim = NULL;
        pl_status st = pl_sim_create(topo, jobs, &o, &sim);
        if (!st)
            st = pl_sim_run(sim, &res[p]);
        pl_sim_free(sim);
        if (st) {
            fprintf(stderr, "%splacement: %s with %s: %s\n", tty ? "\n" : "", name, policies[p],
                    pl_last_error());
            rc = 1;
            break;
        }
        rows[p].policy = policies[p];
        pl_sim_result_summary(res[p], &rows[p].sum);
    }
    if (tty)
        fprintf(stderr, "\r%*s\r", 110, "");
    if (!rc && set->out_dir) {
        rc = sim_make_dir(set->out_dir);
        char path[4096];
        for (int p = 0; p < npol && !rc; p++) {
            snprintf(path, sizeof path, "%s/%s-%s.csv", set->out_dir, name, policies[p]);
            rc = write_csv(path, res[p], pl_sim_result_write_csv);
            snprintf(path, sizeof path, "%s/%s-%s-timeline.csv", set->out_dir, name, policies[p]);
            if (!rc)
                rc = write_csv(path, res[p], pl_sim_result_write_timeline_csv);
        }
        snprintf(path, sizeof path, "%s/%s.svg", set->out_dir, name);
        FILE *f = rc ? NULL : fopen(path, "w");
        if (!rc && !f) {
            fprintf(stderr, "placement: cannot write %s: %s\n", path, strerror(errno));
            rc = 1;
        }
        if (f) {
            char title[256];
            snprintf(title, sizeof title, "%s: %d jobs", name, (int)pl_jobset_count(jobs));
            pl_status st = pl_sim_write_svg((const pl_sim_result *const *)res, policies, npol, title, f);
            if (fclose(f) != 0 || st) {
                fprintf(stderr, "placement: writing %s failed\n", path);
                rc = 1;
            }
            if (set->svg_path)
                snprintf(set->svg_path, set->svg_path_size, "%s", path);
        }
    }
    for (int p = 0; p < npol; p++)
        pl_sim_result_free(res[p]);
    free(res);
    return rc;
}

/* One policy's values in the table's column order, and their names. */
#define SIM_COLUMNS 15
static const char *const sim_column[SIM_COLUMNS] = {
    "policy", "makespan_s", "turnaround", "mean_wait", "max_wait", "mean_slow", "slower",
    "below_u", "rejct", "unfin", "dec_p50ms", "dec_p99ms", "gpu_util", "frag", "qos_viol"};

static void sim_values(const pl_sim_summary *s, double v[SIM_COLUMNS])
{
    const double x[SIM_COLUMNS] = {0, s->makespan, s->mean_turnaround, s->mean_wait, s->max_wait,
                                   s->mean_slowdown, s->slower_than_ideal, s->below_min_utility,
                                   s->rejected, s->unfinished, s->decision_p50 * 1e3,
                                   s->decision_p99 * 1e3, s->mean_gpu_util, s->mean_fragmentation,
                                   s->qos_violations};
    for (int i = 0; i < SIM_COLUMNS; i++)
        v[i] = x[i];
}

void sim_print_csv(FILE *f, const sim_row *rows, int n)
{
    for (int i = 0; i < SIM_COLUMNS; i++)
        fprintf(f, "%s%s", i ? "," : "", sim_column[i]);
    fputc('\n', f);
    for (int p = 0; p < n; p++) {
        double v[SIM_COLUMNS];
        sim_values(&rows[p].sum, v);
        fputs(rows[p].policy, f);
        for (int i = 1; i < SIM_COLUMNS; i++)
            fprintf(f, ",%.17g", v[i]);
        fputc('\n', f);
    }
}

void sim_print_json(FILE *f, const char *workload, int32_t jobs, int32_t machines, int32_t gpus,
                    const sim_row *rows, int n)
{
    fputs("{\"workload\": ", f);
    out_json_string(f, workload);
    fprintf(f, ", \"jobs\": %d, \"machines\": %d, \"gpus\": %d, \"policies\": [", (int)jobs,
            (int)machines, (int)gpus);
    for (int p = 0; p < n; p++) {
        double v[SIM_COLUMNS];
        sim_values(&rows[p].sum, v);
        fputs(p ? ",\n  {\"policy\": " : "\n  {\"policy\": ", f);
        out_json_string(f, rows[p].policy);
        for (int i = 1; i < SIM_COLUMNS; i++) {
            fprintf(f, ", \"%s\": ", sim_column[i]);
            out_json_number(f, v[i]);
        }
        fprintf(f, ", \"failures\": %d, \"jobs_killed\": %d, \"lost_gpu_seconds\": ",
                (int)rows[p].sum.failures, (int)rows[p].sum.jobs_killed);
        out_json_number(f, rows[p].sum.lost_gpu_seconds);
        fputc('}', f);
    }
    fputs("\n]}\n", f);
}

void sim_print_table(FILE *f, const sim_row *rows, int n)
{
    fprintf(f, "%-13s %10s %10s %9s %9s %9s %7s %7s %6s %6s %9s %9s %8s %6s %8s\n", "policy", "makespan_s",
            "turnaround", "mean_wait", "max_wait", "mean_slow", "slower", "below_u", "rejct",
            "unfin", "dec_p50ms", "dec_p99ms", "gpu_util", "frag", "qos_viol");
    int failures = 0;
    for (int p = 0; p < n; p++) {
        const pl_sim_summary *s = &rows[p].sum;
        fprintf(f, "%-13s %10.1f %10.1f %9.1f %9.1f %9.3f %7d %7d %6d %6d %9.3f %9.3f %8.3f %6.3f %8d\n",
                rows[p].policy, s->makespan, s->mean_turnaround, s->mean_wait, s->max_wait,
                s->mean_slowdown, (int)s->slower_than_ideal, (int)s->below_min_utility,
                (int)s->rejected, (int)s->unfinished, s->decision_p50 * 1e3, s->decision_p99 * 1e3,
                s->mean_gpu_util, s->mean_fragmentation, (int)s->qos_violations);
        failures |= s->failures > 0;
    }
    for (int p = 0; failures && p < n; p++)
        fprintf(f, "%s: %d device failures, %d jobs killed and re-queued, %.1f GPU-seconds lost\n",
                rows[p].policy, (int)rows[p].sum.failures, (int)rows[p].sum.jobs_killed,
                rows[p].sum.lost_gpu_seconds);
}
