/* Sub-commands of the placement CLI; each returns the process exit code. */
#ifndef PL_TOOLS_COMMANDS_H
#define PL_TOOLS_COMMANDS_H

int cmd_solve(int argc, char **argv);
int cmd_solvers(int argc, char **argv);
int cmd_topo(int argc, char **argv);
int cmd_place(int argc, char **argv);

#endif
