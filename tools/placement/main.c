/* placement: command-line front end of libplacement. */
#include <stdio.h>
#include <string.h>
#include <placement/placement.h>
#include "commands.h"

static const struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"solve", cmd_solve, "solve a DIMACS min-cost-flow file with one or all solvers"},
    {"solvers", cmd_solvers, "list the available min-cost-flow solvers"},
    {"topo", cmd_topo, "show a machine or cluster topology (hwloc, XML, JSON or builtin), as text or DOT"},
    {"place", cmd_place, "decide where a queue of jobs goes with a placement policy"},
    {"simulate", cmd_simulate, "replay a workload on a cluster under policies and compare them"},
    {"slurm-conf", cmd_slurm_conf, "write slurm.conf node lines, gres.conf and topology.conf of a cluster"},
    {"demo", cmd_demo, "the SC17 scenarios under four policies, beside the paper's numbers"},
};

static void usage(FILE *f)
{
    fprintf(f, "usage: placement COMMAND [OPTIONS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'placement COMMAND --help' describes a command's options.\n"
               "libplacement %s\n", pl_version());
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("placement %s\n", pl_version());
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "placement: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
