/* How much a Rodinia job slows when its GPU is remote (seed 004's network
 * sensitivity) or when another Rodinia job's GPU shares its socket (the
 * co-location model, doc/drmaestro.md), for DRMaestro's requests and the
 * simulator's run times. */
#include <strings.h>
#include "internal/drm_impl.h"

/* Share of a Rodinia job's run time spent on the network when its GPU is
 * remote: isolated, and next to a network-saturating co-runner (iperf),
 * which we take as network load 1. Seed 000 sec. 3.3 (Fig. 14's text) for
 * seven applications; HotSpot from seed 004 ("Experiment 1"). */
static const struct {
    const char *type;
    double isolated, loaded;
} network_share[] = {
    {"b+tree", 0.002, 0.01}, {"backprop", 0.05, 0.06},   {"gaussian", 0.01, 0.09}, {"hotspot", 0.002, 0.01},
    {"lavamd", 0.02, 0.03},  {"nw", 0.17, 0.49},         {"pathfinder", 0.02, 0.11}, {"srad", 0.03, 0.08},
};
#define NSHARE ((int)(sizeof network_share / sizeof network_share[0]))

/* The compute part is unchanged and the network part grows with the load:
 * run time = T_local / (1 - share), share linear in the load, so the
 * slowdown factor at load 0 is 1 / (1 - isolated), at load 1
 * 1 / (1 - loaded), linear in between. An unknown workload gets the mean of
 * the table's factors. */
void pl_drm_network_factors(const char *type, double *sf0, double *sf1)
{
    double m0 = 0, m1 = 0;
    for (int i = 0; i < NSHARE; i++) {
        double f0 = 1 / (1 - network_share[i].isolated), f1 = 1 / (1 - network_share[i].loaded);
        if (type && !strcasecmp(type, network_share[i].type)) {
            *sf0 = f0;
            *sf1 = f1;
            return;
        }
        m0 += f0 / NSHARE;
        m1 += f1 / NSHARE;
    }
    *sf0 = m0;
    *sf1 = m1;
}

static int share_index(const char *type)
{
    for (int i = 0; type && i < NSHARE; i++)
        if (!strcasecmp(type, network_share[i].type))
            return i;
    return -1;
}

int pl_drm_network_known(const char *type)
{
    return share_index(type) >= 0;
}

/* Two GPUs under one socket share its PCIe host bridge, so their transfers
 * contend. The thesis measured each application against a co-runner that
 * saturates its link (iperf): its run time grows by
 * c = (1 - isolated) / (1 - loaded). A Rodinia neighbour loads the bridge
 * in proportion to its own transfer share, relative to the heaviest (NW,
 * whose pressure is taken as a saturating co-runner's):
 * slowdown = 1 + (c_a - 1) * isolated_b / max isolated. Not Rodinia: 1. */
double pl_drm_coloc_slowdown(const char *type, const char *other)
{
    int a = share_index(type), b = share_index(other);
    if (a < 0 || b < 0)
        return 1;
    double top = 0;
    for (int i = 0; i < NSHARE; i++)
        top = network_share[i].isolated > top ? network_share[i].isolated : top;
    double c = (1 - network_share[a].isolated) / (1 - network_share[a].loaded);
    return 1 + (c - 1) * network_share[b].isolated / top;
}
