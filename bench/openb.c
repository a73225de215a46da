/* bench-openb: issue 22's targets on Alibaba's openb trace (doc/results.md).
 *
 *   bench-openb DIR [--seeds A-B] [--policy LIST] [--lists LIST] [--quick]
 *
 * DIR holds openb_node_list_gpu_node.csv and the openb_pod_list_*.csv files
 * (../shared/data/alibaba-openb); without it the bench says so and exits 0.
 * For each pod list and policy: the GPU allocation ratio at 100% arrived
 * demand (mean and spread over the seeds), the fragmentation then, the
 * time of one run to 130% and the process's peak memory; then the checks:
 * our baselines and FGD within 1 point of the peer's published means on the
 * default list, fgd-price (ours) >= 96.0% there and ahead of FGD on every
 * list, one run under 3 s, memory under 200 MB. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <placement/placement.h>
#include "internal/openb.h"

static const char *const all_policies[] = {"random-fit", "dotprod", "gpu-clustering", "gpu-packing",
                                           "bestfit", "fgd", "fgd-coarse", "fgd-balance",
                                           "fgd-price", NULL};
/* The peer's published means on openb_pod_list_default at 100% (ATC'23). */
static const double peer[] = {86.3, 90.6, 91.7, 91.8, 92.9, 95.2, -1, -1, -1};
static const char *const all_lists[] = {"default", "gpushare40", "multigpu20", "gpuspec10", "cpu050", NULL};

static double peak_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

static int split(char *s, const char **out, int max)
{
    int n = 0;
    for (char *t = strtok(s, ","); t && n < max; t = strtok(NULL, ","))
        out[n++] = t;
    out[n] = NULL;
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        printf("bench-openb: skipped: give the folder of the openb CSV files "
               "(../shared/data/alibaba-openb) as the first argument\n");
        return 0;
    }
    const char *dir = argv[1];
    long s0 = 42, s1 = 51;
    const char *pols[16], *lists[16];
    char polbuf[512] = "", listbuf[512] = "";
    memcpy(pols, all_policies, sizeof all_policies);
    memcpy(lists, all_lists, sizeof all_lists);
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--seeds") && i + 1 < argc) {
            if (sscanf(argv[++i], "%ld-%ld", &s0, &s1) == 1)
                s1 = s0;
        } else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
            snprintf(polbuf, sizeof polbuf, "%s", argv[++i]);
            split(polbuf, pols, 15);
        } else if (!strcmp(argv[i], "--lists") && i + 1 < argc) {
            snprintf(listbuf, sizeof listbuf, "%s", argv[++i]);
            split(listbuf, lists, 15);
        } else if (!strcmp(argv[i], "--quick")) {
            s1 = s0 + 2;
            lists[1] = NULL;
        } else {
            fprintf(stderr, "bench-openb: unknown argument '%s'\n", argv[i]);
            return 2;
        }
    }
    char path[1024];
    snprintf(path, sizeof path, "%s/openb_node_list_gpu_node.csv", dir);
    pl_topology *t = NULL;
    if (pl_openb_load_nodes(path, &t)) {
        printf("bench-openb: skipped: %s\n", pl_last_error());
        return 0;
    }
    int nseeds = (int)(s1 - s0 + 1), failed = 0;
    double worst_run = 0, fgd_of[16], ours_of[16];
    printf("%-11s %-15s %8s %6s %8s %8s %8s\n", "list", "policy", "alloc100", "sd", "frag100", "peer", "s/run");
    for (int l = 0; lists[l]; l++) {
        pl_openb_pods pods;
        snprintf(path, sizeof path, "%s/openb_pod_list_%s.csv", dir, lists[l]);
        if (pl_openb_load_pods(path, &pods)) {
            printf("bench-openb: %s\n", pl_last_error());
            failed++;
            continue;
        }
        fgd_of[l] = ours_of[l] = NAN;
        for (int p = 0; pols[p]; p++) {
            double sum = 0, sq = 0, frag = 0, secs = 0;
            for (long seed = s0; seed <= s1; seed++) {
                pl_saturate_opts o;
                pl_saturate_result r;
                pl_saturate_opts_init(&o);
                o.policy = pols[p];
                o.seed = (uint64_t)seed;
                if (pl_saturate_run(t, &pods, &o, &r)) {
                    printf("bench-openb: %s\n", pl_last_error());
                    return 1;
                }
                sum += r.alloc[100];
                sq += r.alloc[100] * r.alloc[100];
                frag += r.frag[100];
                secs += r.seconds;
                worst_run = r.seconds > worst_run ? r.seconds : worst_run;
                pl_saturate_result_free(&r);
            }
            double mean = sum / nseeds, sd = sqrt(fmax(0, sq / nseeds - mean * mean));
            double ref = -1;
            for (int k = 0; all_policies[k]; k++)
                if (!strcmp(all_policies[k], pols[p]) && !strcmp(lists[l], "default"))
                    ref = peer[k];
            printf("%-11s %-15s %8.2f %6.2f %8.2f ", lists[l], pols[p], mean, sd, frag / nseeds);
            if (ref > 0)
                printf("%8.1f", ref);
            else
                printf("%8s", "-");
            printf(" %8.3f\n", secs / nseeds);
            fflush(stdout);
            if (ref > 0 && fabs(mean - ref) > 1.0) {
                printf("  MISS: %s on %s is %.2f, the peer's %.1f (more than 1 point apart)\n", pols[p], lists[l],
                       mean, ref);
                failed++;
            }
            if (!strcmp(pols[p], "fgd"))
                fgd_of[l] = mean;
            if (!strcmp(pols[p], "fgd-price"))
                ours_of[l] = mean;
        }
        if (!isnan(ours_of[l]) && !strcmp(lists[l], "default") && ours_of[l] < 96.0) {
            printf("  MISS: fgd-price %.2f < 96.0 on default\n", ours_of[l]);
            failed++;
        }
        if (!isnan(ours_of[l]) && !isnan(fgd_of[l]) && ours_of[l] <= fgd_of[l]) {
            printf("  MISS: fgd-price %.2f not ahead of fgd %.2f on %s\n", ours_of[l], fgd_of[l], lists[l]);
            failed++;
        }
        pl_openb_pods_free(&pods);
    }
    double mb = peak_mb();
    printf("slowest run to 130%%: %.3f s (target < 3 s); peak memory %.1f MB (target < 200 MB)\n", worst_run, mb);
    if (worst_run >= 3.0 || mb >= 200) {
        printf("  MISS: time or memory\n");
        failed++;
    }
    printf("%s: %d miss(es)\n", failed ? "FAIL" : "OK", failed);
    pl_topology_free(t);
    return failed ? 1 : 0;
}
