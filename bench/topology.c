/* bench-topology: how long building and querying large clusters takes.
 *
 * For each size, builds a cluster of N copies of a builtin machine with
 * pl_topology_cluster() and reports the time per machine against a reference
 * measured in the same process: N pl_topology_copy() calls of the template
 * (the cost of copying the machines without assembling a cluster). Then the
 * GPU distance matrix of one machine, inside the cluster and alone.
 * Usage: bench-topology [--template NAME] [--machines N,N,...] [--repeat R]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <placement/placement.h>

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int die(const char *what)
{
    fprintf(stderr, "bench-topology: %s: %s\n", what, pl_last_error());
    return 1;
}

/* Best of r runs of the cluster build and of the reference copies. */
static int measure(const pl_topology *tmpl, int32_t n, int r, double *cluster_s, double *copy_s,
                   int32_t *vertices)
{
    *cluster_s = *copy_s = 1e30;
    for (int i = 0; i < r; i++) {
        pl_topology *c;
        double t0 = now();
        if (pl_topology_cluster(tmpl, n, 32, 0, &c))
            return die("pl_topology_cluster");
        double t1 = now();
        *vertices = pl_topology_vertex_count(c);
        pl_topology_free(c);
        pl_topology **copies = calloc((size_t)n, sizeof *copies);
        if (!copies)
            return die("calloc");
        double t2 = now();
        for (int32_t k = 0; k < n; k++)
            if (pl_topology_copy(tmpl, &copies[k]))
                return die("pl_topology_copy");
        double t3 = now();
        for (int32_t k = 0; k < n; k++)
            pl_topology_free(copies[k]);
        free(copies);
        *cluster_s = t1 - t0 < *cluster_s ? t1 - t0 : *cluster_s;
        *copy_s = t3 - t2 < *copy_s ? t3 - t2 : *copy_s;
    }
    return 0;
}

static double matrix_seconds(const pl_topology *t, const char *machine_path)
{
    int32_t m, g[64], k;
    if (pl_topology_find(t, machine_path, &m) ||
        pl_topology_descendants(t, m, PL_VK_GPU, g, 64, &k))
        return -1;
    int64_t mat[64 * 64];
    double t0 = now();
    for (int i = 0; i < 100; i++)
        if (pl_topology_distance_matrix(t, g, k, mat))
            return -1;
    return (now() - t0) / 100;
}

int main(int argc, char **argv)
{
    const char *name = "minsky", *sizes = "100,1000,10000";
    int repeat = 3;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--template") && i + 1 < argc)
            name = argv[++i];
        else if (!strcmp(argv[i], "--machines") && i + 1 < argc)
            sizes = argv[++i];
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]) > 0 ? atoi(argv[i]) : 1;
        else {
            fprintf(stderr, "usage: bench-topology [--template NAME] [--machines N,N,...] [--repeat R]\n");
            return strcmp(argv[i], "--help") ? 2 : 0;
        }
    }
    pl_topology *tmpl;
    if (pl_topology_builtin(name, &tmpl))
        return die(name);
    printf("template %s: %d vertices, %d links; best of %d runs\n\n", name,
           pl_topology_vertex_count(tmpl), pl_topology_link_count(tmpl), repeat);
    printf("%9s %10s %12s %14s %16s %14s %14s\n", "machines", "vertices", "cluster s", "us/machine",
           "N copies s (ref)", "cluster/ref", "gpu matrix us");
    char *list = strdup(sizes);
    for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
        int32_t n = atoi(tok), v = 0;
        double cs, ps;
        if (n < 1 || measure(tmpl, n, repeat, &cs, &ps, &v))
            return 1;
        pl_topology *c;
        if (pl_topology_cluster(tmpl, n, 32, 0, &c))
            return die("pl_topology_cluster");
        double ms = matrix_seconds(c, "cluster/rack0/node0");
        pl_topology_free(c);
        printf("%9d %10d %12.4f %14.2f %16.4f %14.2f %14.1f\n", n, v, cs, cs / n * 1e6, ps, cs / ps,
               ms * 1e6);
    }
    printf("\none machine alone: gpu matrix %.1f us\n", matrix_seconds(tmpl, "machine") * 1e6);
    free(list);
    pl_topology_free(tmpl);
    return 0;
}
