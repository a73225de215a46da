/* Slot jobs: a task of several whole GPUs seen as one task per GPU (not
 * installed; lib/jobgraph/job_slots.c). The policies map one task to one
 * GPU, so the engine shows them a job's slot job, and a policy reads back
 * the user's job it stands for through these. */
#ifndef PL_JOB_SLOTS_H
#define PL_JOB_SLOTS_H

#include <placement/job.h>
#include "internal/core.h"

/* 1 if some task of job asks for more than one whole GPU. */
PL_INTERNAL int pl_job_has_multi_gpu(const pl_job *job);
/* Entries of a decision for job (placement/policy.h): one per whole GPU of
 * a task of gpus >= 1, one per other task (0 for NULL). Equal to the task
 * count when no task has more than one GPU. */
PL_INTERNAL int64_t pl_job_slot_count(const pl_job *job);
/* The slot job of job: a task of k > 1 GPUs becomes k consecutive tasks of
 * one GPU (the first with the task's cores, memory, bandwidth and CPU
 * millicores, the others with its GPU memory only), sharing its traffic and
 * constraints, held on one machine, with heavy traffic between them; task
 * i of it is entry i of a decision for job. *out = NULL when job has no
 * such task (it is its own slot job). ::PL_EINVAL when it has more than
 * INT32_MAX slots; ::PL_ENOMEM. *out is the caller's to free. */
PL_INTERNAL pl_status pl_job_slots(const pl_job *job, pl_job **out);
/* 1 if job was made by pl_job_slots() (a policy that cannot hold the slots
 * of one task together refuses it). */
PL_INTERNAL int pl_job_is_slot_job(const pl_job *job);
/* The user's job a slot job was made from (borrowed: the caller of
 * pl_job_slots() keeps it alive as long as the slot job), NULL for any
 * other job. A policy keeping state per job across rounds keys it by this
 * one (the engine may show a waiting job's slot job again, or a new one
 * after the user's job changed: slot_cache.c), and reads the user's tasks
 * through it. */
PL_INTERNAL const pl_job *pl_job_slot_origin(const pl_job *job);
/* The number the engine gave a slot job it keeps across the calls of one
 * policy instance (slot_cache.c): two slot jobs with one nonzero serial in
 * one instance are the same unchanged job, so a policy may keep what it
 * derives from one under it. 0 for any other job (one made for a single
 * call, or no slot job). */
PL_INTERNAL int64_t pl_job_slot_serial(const pl_job *job);
/* 1 if pl_job_slots() makes equal slot jobs of a and b: everything it reads
 * of them is equal (name, tasks, edges, constraints, goals, GPU model). */
PL_INTERNAL int pl_job_same_slots(const pl_job *a, const pl_job *b);
/* A reason in buf (size bytes, NUL-terminated) that names task ids of job:
 * when job is a slot job these are slot ids, so append which slots are
 * which of the user's tasks (" (task ids here count a task of k GPUs as k:
 * task 0 is 0-3, task 1 is 4)"), truncated to fit. Nothing for another job.
 * Called where such a reason is written, never on a reason naming none. */
PL_INTERNAL void pl_job_slots_explain(const pl_job *job, char *buf, size_t size);

#endif
