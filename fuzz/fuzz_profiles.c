/* libFuzzer harness: SC17 interference-profile loader, then lookups. */
#include <stddef.h>
#include <stdint.h>

#include <placement/interference.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    pl_profile_set *ps = NULL;
    if (pl_profile_set_load_sc17_string((const char *)data, size, &ps) != PL_OK)
        return 0;
    int32_t solo = 0, colocated = 0;
    (void)pl_profile_set_counts(ps, &solo, &colocated);
    double s = 0;
    (void)pl_profile_set_slowdown(ps, "bvlc_alexnet", "1", 1, "bvlc_alexnet", "1", 1, &s);
    pl_profile_set_free(ps);
    return 0;
}
