/* Placeholder: being written (issue 5). */
#include "../core/core.h"
