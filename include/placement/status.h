/**
 * \file placement/status.h
 * \brief Status codes and the per-thread error message of libplacement.
 *
 * Every fallible libplacement call returns a ::pl_status. When it is not
 * ::PL_OK the call also records a human-readable message, naming the file,
 * line and field for parse errors, that the same thread reads back with
 * pl_last_error(). The library never prints, never calls exit() or abort().
 */
#ifndef PLACEMENT_STATUS_H
#define PLACEMENT_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

/** \defgroup pl_status Status codes and error messages
 *  @{ */

/** Result of every fallible libplacement call. */
typedef enum pl_status {
    PL_OK = 0,          /**< Success. */
    PL_EINVAL = 1,      /**< An argument is invalid (NULL handle, id out of range, bad option). */
    PL_ENOMEM = 2,      /**< Memory allocation failed; the handle is unchanged. */
    PL_EPARSE = 3,      /**< Input text is malformed; the message names file, line and what was expected. */
    PL_EINFEASIBLE = 4, /**< No solution satisfies the constraints (e.g. supplies cannot be routed). */
    PL_EUNBOUNDED = 5,  /**< The objective can decrease without bound (negative cycle of infinite capacity). */
    PL_EOVERFLOW = 6,   /**< A value or an intermediate result does not fit in 64 bits. */
    PL_ENOTFOUND = 7,   /**< A named object (solver, policy, node, file) does not exist. */
    PL_EIO = 8,         /**< Reading or writing a file failed (errno text in the message). */
    PL_EVERIFY = 9,     /**< A certificate check failed: the solution is not feasible or not optimal. */
    PL_ESTATE = 10,     /**< The call is not legal in the handle's current state (e.g. no solution yet). */
    PL_ELIMIT = 11,     /**< An iteration or size limit set by the caller was reached. */
    PL_EINTERNAL = 12   /**< An external library (e.g. GLPK) failed unexpectedly. */
} pl_status;

/**
 * \brief Message describing the last failure on the calling thread.
 *
 * \return A NUL-terminated string owned by the library, valid until the next
 *         failing libplacement call on the same thread. Never NULL: "" when
 *         no call has failed yet on this thread.
 * \note Thread-safe: each thread has its own message.
 */
const char *pl_last_error(void);

/**
 * \brief Short constant name of a status code, e.g. "PL_EPARSE".
 * \return A static string; "PL_E?" for an unknown code.
 */
const char *pl_status_name(pl_status status);

/**
 * \brief One-line English description of a status code.
 * \return A static string.
 */
const char *pl_status_string(pl_status status);

/**
 * \brief Release memory that a libplacement call returned to the caller
 *        (for example the text of pl_flownet_write_dimacs_string()).
 * \param p pointer returned by the library, or NULL (no-op).
 */
void pl_free(void *p);

/** @} */

#ifdef __cplusplus
}
#endif
#endif /* PLACEMENT_STATUS_H */
