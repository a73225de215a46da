/* placement/interference.h: ProfileSet. */

%rename(Spread) pl_spread;
typedef enum pl_spread { PL_SPREAD_INTRA_SOCKET = 0, PL_SPREAD_INTER_SOCKET = 1 } pl_spread;

%newobject ProfileSet::builtin;
%newobject ProfileSet::from_sc17;
%newobject ProfileSet::from_sc17_string;

/** Interference profiles: measured run times of workloads alone (solo) and next to another (co-
 *  located), from which policies and the simulator derive slowdowns (doc/interference.md). */
typedef struct {} ProfileSet;

%extend ProfileSet {
    /** An empty set. */
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
    /** Profiles from an SC17 artifact profile file. */
    static ProfileSet *from_sc17(const char *path)
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_load_sc17(path, &p), NULL);
        return p;
    }
    /** Profiles from SC17 artifact profile text. */
    static ProfileSet *from_sc17_string(const char *text)
    {
        ProfileSet *p = NULL;
        PLB_CHECK(pl_profile_set_load_sc17_string(text, 0, &p), NULL);
        return p;
    }
    /** Run time in seconds of workload (type, size) on gpus GPUs alone, spread within or across
     *  sockets (SPREAD_*). */
    void add_solo(const char *type, const char *size, int32_t gpus, pl_spread spread, double seconds)
    {
        PLB_CHECK(pl_profile_set_add_solo($self, type, size, gpus, spread, seconds), );
    }
    /** Run time in seconds of (type, size) on gpus GPUs next to (other_type, other_size) on
     *  other_gpus. */
    void add_colocated(const char *type, const char *size, int32_t gpus, const char *other_type,
                       const char *other_size, int32_t other_gpus, double seconds)
    {
        PLB_CHECK(pl_profile_set_add_colocated($self, type, size, gpus, other_type, other_size,
                                               other_gpus, seconds), );
    }
    /** Run time in seconds of (type, size) alone on gpus GPUs (NotFoundError if not profiled). */
    double solo(const char *type, const char *size, int32_t gpus, pl_spread spread = PL_SPREAD_INTRA_SOCKET)
    {
        double s = 0;
        PLB_CHECK(pl_profile_set_solo($self, type, size, gpus, spread, &s), 0);
        return s;
    }
    /** Run time in seconds of (type, size) on gpus GPUs next to (other_type, other_size) on
     *  other_gpus. */
    double colocated(const char *type, const char *size, int32_t gpus, const char *other_type,
                     const char *other_size, int32_t other_gpus)
    {
        double s = 0;
        PLB_CHECK(pl_profile_set_colocated($self, type, size, gpus, other_type, other_size,
                                           other_gpus, &s), 0);
        return s;
    }
    /** Co-located over solo run time of (type, size) next to (other_type, other_size). */
    double slowdown(const char *type, const char *size, int32_t gpus, const char *other_type,
                    const char *other_size, int32_t other_gpus)
    {
        double s = 1;
        PLB_CHECK(pl_profile_set_slowdown($self, type, size, gpus, other_type, other_size,
                                          other_gpus, &s), 1);
        return s;
    }
    /** Number of solo profiles. */
    int32_t solo_count()
    {
        int32_t s = 0, c = 0;
        PLB_CHECK(pl_profile_set_counts($self, &s, &c), 0);
        return s;
    }
    /** Number of co-located profiles. */
    int32_t colocated_count()
    {
        int32_t s = 0, c = 0;
        PLB_CHECK(pl_profile_set_counts($self, &s, &c), 0);
        return c;
    }
}
