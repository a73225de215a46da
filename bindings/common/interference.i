/* placement/interference.h: ProfileSet. */

%rename(Spread) pl_spread;
typedef enum pl_spread { PL_SPREAD_INTRA_SOCKET = 0, PL_SPREAD_INTER_SOCKET = 1 } pl_spread;

%newobject ProfileSet::builtin;
%newobject ProfileSet::from_sc17;
%newobject ProfileSet::from_sc17_string;

typedef struct {} ProfileSet;

%extend ProfileSet {
    ProfileSet()
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_create(&p), NULL);
        return p;
    }
    ~ProfileSet() { pl_profile_set_free($self); }
    /** The SC17 artifact's measured profiles. */
    static ProfileSet *builtin()
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_builtin(&p), NULL);
        return p;
    }
    static ProfileSet *from_sc17(const char *path)
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_load_sc17(path, &p), NULL);
        return p;
    }
    static ProfileSet *from_sc17_string(const char *text)
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_load_sc17_string(text, 0, &p), NULL);
        return p;
    }
    void add_solo(const char *type, const char *size, int32_t gpus, pl_spread spread, double seconds)
    {
        PLB_CHECK(pl_profile_set_add_solo($self, type, size, gpus, spread, seconds), );
    }
    void add_colocated(const char *type, const char *size, int32_t gpus, const char *other_type,
                       const char *other_size, int32_t other_gpus, double seconds)
    {
        PLB_CHECK(pl_profile_set_add_colocated($self, type, size, gpus, other_type, other_size,
                                               other_gpus, seconds), );
    }
    double solo(const char *type, const char *size, int32_t gpus, pl_spread spread = PL_SPREAD_INTRA_SOCKET)
    {
        double s = 0;
        PLB_CHECK(pl_profile_set_solo($self, type, size, gpus, spread, &s), 0);
        return s;
    }
    double colocated(const char *type, const char *size, int32_t gpus, const char *other_type,
                     const char *other_size, int32_t other_gpus)
    {
        double s = 0;
        PLB_CHECK(pl_profile_set_colocated($self, type, size, gpus, other_type, other_size,
                                           other_gpus, &s), 0);
        return s;
    }
    double slowdown(const char *type, const char *size, int32_t gpus, const char *other_type,
                    const char *other_size, int32_t other_gpus)
    {
        double s = 1;
        PLB_CHECK(pl_profile_set_slowdown($self, type, size, gpus, other_type, other_size,
                                          other_gpus, &s), 1);
        return s;
    }
    int32_t solo_count()
    {
        int32_t s = 0, c = 0;
        PLB_CHECK(pl_profile_set_counts($self, &s, &c), 0);
        return s;
    }
    int32_t colocated_count()
    {
        int32_t s = 0, c = 0;
        PLB_CHECK(pl_profile_set_counts($self, &s, &c), 0);
        return c;
    }
}
