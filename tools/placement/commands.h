/* Sub-commands of the placement CLI; each returns the process exit code. */
#ifndef PL_TOOLS_COMMANDS_H
#define PL_TOOLS_COMMANDS_H

#include <stddef.h>
#include <stdio.h>
#include <placement/placement.h>

int cmd_solve(int argc, char **argv);
int cmd_solvers(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_place(int argc, char **argv);
int cmd_simulate(int argc, char **argv);
/* `simulate --scenario nvme-*` (seed 001), dispatched from cmd_simulate. */
int cmd_simulate_nvme(int argc, char **argv);
/* `simulate --nodes FILE` (Alibaba's openb lists, ATC'23), dispatched from cmd_simulate. */
int cmd_simulate_openb(int argc, char **argv);
/* `simulate --scenario kim-*` (seed 003), dispatched from cmd_simulate. */
int cmd_simulate_kim(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_slurm_conf(int argc, char **argv);

/* ---- machine-readable output (output.c) ---- */

enum { OUT_TABLE, OUT_CSV, OUT_JSON };
/* OUT_TABLE, OUT_CSV or OUT_JSON for "table", "csv", "json"; -1 otherwise. */
int out_format(const char *text);
/* A JSON number (null for NaN and infinities) and a JSON string. */
void out_json_number(FILE *f, double x);
void out_json_string(FILE *f, const char *s);
/* One CSV field, quoted when it holds a comma, a quote or a line break. */
void out_csv_field(FILE *f, const char *s);

/* ---- argument parsing (args.c) ---- */

/* A seed: decimal digits only, below 2^64. 1 with *out set, 0 if not. */
int parse_seed(const char *text, unsigned long long *out);
/* An option value in 1..max, or -1 after a message naming `placement cmd --name`. */
long long parse_count(const char *cmd, const char *name, const char *text, long long max);
/* The cluster of a sub-command: an hwloc XML or JSON file as it is, else a
 * builtin (NULL: this machine's hwloc topology) replicated into `machines`
 * machines, `per_rack` per rack (0: 32), when machines > 0. */
pl_status load_machines(const char *xml, const char *json, const char *builtin, long long machines,
                        long long per_rack, pl_topology **out);

/* ---- shared by simulate and demo (sim_common.c) ---- */

typedef struct sim_settings {
    unsigned long long seed;   /* policy seed (random) */
    double interval;           /* 0: the simulator's default */
    const char *out_dir;       /* NULL: write nothing */
    int quiet;                 /* no progress line even on a terminal */
    pl_sim_runtime runtime;    /* run-time model */
    char *svg_path;            /* receives the SVG's path when out_dir is set */
    size_t svg_path_size;
    const double *priority;    /* per-job queue priorities (a trace's), or NULL */
    const double *startup;     /* per-job startup delays (a trace's), or NULL */
    double startup_delay;      /* for every job when startup is NULL */
    const pl_sim_failure *failures; /* device failures, or NULL */
    int32_t nfailures;
    pl_utility_form utility;   /* the policies' utility form (0 = sim default, the paper's) */
    int utility_set;           /* utility given (--utility) */
    const pl_sa_policy_opts *sa_opts; /* sa-placement's options (--sa-model), or NULL: its defaults */
    double gpu_share_factor;   /* 0: the simulator's default (--gpu-share-factor) */
    pl_sim_gpu_share_model gpu_share_model; /* --gpu-share-model */
    const char *usage_traces;  /* --usage-traces FILE, or NULL */
} sim_settings;

typedef struct sim_row {
    const char *policy;
    pl_sim_summary sum;
} sim_row;

/* Create dir if missing; 0 or 1 (message printed). */
int sim_make_dir(const char *dir);
/* Run every policy on the workload; rows[p] gets policy p's summary; writes
 * <out>/<name>-<policy>.csv and <out>/<name>.svg. Returns an exit code. */
int sim_compare(const char *name, const pl_topology *topo, const pl_jobset *jobs,
                const char *const *policies, int npol, const sim_settings *set, sim_row *rows);
void sim_print_table(FILE *f, const sim_row *rows, int n);
/* The same rows as CSV (header line, one line per policy, the table's
 * columns under the same names) or as one JSON document {"workload",
 * "jobs", "machines", "gpus", "policies": [{column: value, ...}]}. */
void sim_print_csv(FILE *f, const sim_row *rows, int n);
void sim_print_json(FILE *f, const char *workload, int32_t jobs, int32_t machines, int32_t gpus,
                    const sim_row *rows, int n);

#endif
