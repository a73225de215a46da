/* DIMACS `min` and solution writers. Ids are written in the network's id
 * base so a file read and written back keeps its numbering. */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "internal/flownet_impl.h"

static pl_status io_error(const char *what)
{
    return pl_err(PL_EIO, "%s: write error: %s", what, strerror(errno));
}

pl_status pl_flownet_write_dimacs(const pl_flownet *net, FILE *f)
{
    if (!net || !f)
        return pl_err(PL_EINVAL, "pl_flownet_write_dimacs: NULL argument");
    int b = net->id_base;
    /* Removed nodes stay as isolated ids (numbering is kept); removed arcs are left out. */
    fprintf(f, "p min %d %d\n", net->n, net->m - (int32_t)net->n_free_arcs);
    for (int32_t v = 0; v < net->n; v++) {
        const char *name = pl_flownet_node_name(net, v);
        if (name)
            fprintf(f, "c nd %s\n", name);
        /* A named node gets an `n` line even at zero supply: the name binds to it. */
        if (name || net->supply[v] != 0)
            fprintf(f, "n %d %" PRId64 "\n", v + b, net->supply[v]);
    }
    for (int32_t a = 0; a < net->m; a++)
        if (!net->arc_dead[a])
            fprintf(f, "a %d %d %" PRId64 " %" PRId64 " %" PRId64 "\n", net->tail[a] + b,
                net->head[a] + b, net->lower[a], net->upper[a], net->cost[a]);
    if (fflush(f) != 0 || ferror(f))
        return io_error("pl_flownet_write_dimacs");
    return PL_OK;
}

pl_status pl_flownet_save_dimacs(const pl_flownet *net, const char *path)
{
    if (!net || !path)
        return pl_err(PL_EINVAL, "pl_flownet_save_dimacs: NULL argument");
    FILE *f = fopen(path, "w");
    if (!f)
        return pl_err(PL_EIO, "%s: cannot open for writing: %s", path, strerror(errno));
    pl_status st = pl_flownet_write_dimacs(net, f);
    if (fclose(f) != 0 && st == PL_OK)
        st = pl_err(PL_EIO, "%s: close failed: %s", path, strerror(errno));
    return st;
}

pl_status pl_flownet_write_dimacs_string(const pl_flownet *net, char **text)
{
    if (!net || !text)
        return pl_err(PL_EINVAL, "pl_flownet_write_dimacs_string: NULL argument");
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return pl_err(PL_ENOMEM, "pl_flownet_write_dimacs_string: cannot open a memory stream");
    pl_status st = pl_flownet_write_dimacs(net, f);
    if (fclose(f) != 0 && st == PL_OK)
        st = pl_err(PL_ENOMEM, "pl_flownet_write_dimacs_string: out of memory");
    if (st) {
        free(buf);
        return st;
    }
    *text = buf;
    return PL_OK;
}

pl_status pl_flownet_write_solution(const pl_flownet *net, FILE *f)
{
    if (!net || !f)
        return pl_err(PL_EINVAL, "pl_flownet_write_solution: NULL argument");
    if (!net->has_solution)
        return pl_err(PL_ESTATE, "pl_flownet_write_solution: the network holds no solution");
    int b = net->id_base;
    int64_t cost;
    pl_status st = pl_flownet_held_cost(net, &cost);
    if (st)
        return st;
    fprintf(f, "s %" PRId64 "\n", cost);
    for (int32_t a = 0; a < net->m; a++)
        if (net->flow[a] != 0)
            fprintf(f, "f %d %d %" PRId64 "\n", net->tail[a] + b, net->head[a] + b, net->flow[a]);
    if (fflush(f) != 0 || ferror(f))
        return io_error("pl_flownet_write_solution");
    return PL_OK;
}
