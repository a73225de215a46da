/* placement topo: placeholder, being written (issue 4). */
#include <stdio.h>
#include "commands.h"

int cmd_topo(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "placement topo: not implemented yet\n");
    return 1;
}
