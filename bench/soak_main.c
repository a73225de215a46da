/* bench-soak: a million place/commit/release cycles on a 1,000-machine
 * cluster (bench/soak.h), then the numbers doc/bench.md reports.
 *
 *   bench-soak [--machines N] [--cycles N] [--load F] [--seed N]
 *              [--policy NAME] [--rss-every N]
 *
 * Exit 0 when every invariant held (no double booking, nothing leaked, RSS
 * growth after warm-up under 1 MB), 1 when one did not, 2 on bad usage. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "soak.h"

static int usage(const char *why)
{
    fprintf(stderr, "bench-soak: %s\nusage: bench-soak [--machines N] [--cycles N] [--load F] "
            "[--seed N] [--policy NAME] [--rss-every N]\n", why);
    return 2;
}

static int int_arg(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return 0;
    *out = v;
    return 1;
}

int main(int argc, char **argv)
{
    pl_soak_opts o;
    pl_soak_opts_init(&o);
    o.rss_every = 10000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        long long n;
        if (!v)
            return usage("every option takes a value");
        i++;
        if (!strcmp(a, "--machines") && int_arg(v, 1, 100000, &n))
            o.machines = (int32_t)n;
        else if (!strcmp(a, "--cycles") && int_arg(v, 1, 1000000000, &n))
            o.cycles = n;
        else if (!strcmp(a, "--seed") && int_arg(v, 0, (long long)1 << 62, &n))
            o.seed = (uint64_t)n;
        else if (!strcmp(a, "--rss-every") && int_arg(v, 0, 1000000000, &n))
            o.rss_every = n;
        else if (!strcmp(a, "--policy"))
            o.policy = v;
        else if (!strcmp(a, "--load")) {
            char *end;
            o.load = strtod(v, &end);
            if (end == v || *end || !(o.load > 0 && o.load < 1))
                return usage("--load wants a number in (0, 1)");
        } else {
            return usage("unknown option or value out of range");
        }
    }
    pl_soak_result r;
    pl_status st = pl_soak_run(&o, &r);
    printf("policy %s, %d machines (%d with 2-unit GPUs), load %.2f, seed %llu\n", o.policy,
           (int)o.machines, (int)(o.machines / 2), o.load, (unsigned long long)o.seed);
    printf("cycles %lld in %.1f s (%.1f us/cycle)\n", (long long)r.cycles, r.seconds,
           r.cycles ? r.seconds * 1e6 / (double)r.cycles : 0.0);
    printf("placed %lld released %lld not-placed %lld shared-gpu-tasks %lld\n",
           (long long)r.placed, (long long)r.released, (long long)r.not_placed,
           (long long)r.shared_tasks);
    printf("rss after warm-up %lld KiB, max after %lld KiB, end %lld KiB: growth %lld KiB\n",
           (long long)r.rss_start_kb, (long long)r.rss_max_kb, (long long)r.rss_end_kb,
           (long long)(r.rss_max_kb - r.rss_start_kb));
    printf("double-booked %lld leaked %lld\n", (long long)r.double_booked, (long long)r.leaked);
    if (st) {
        fprintf(stderr, "bench-soak: %s: %s\n", pl_status_name(st), pl_last_error());
        return 1;
    }
    int ok = r.double_booked == 0 && r.leaked == 0 && r.released == r.placed &&
             r.rss_max_kb - r.rss_start_kb < 1024;
    printf("%s\n", ok ? "soak: OK" : "soak: FAILED");
    return ok ? 0 : 1;
}
