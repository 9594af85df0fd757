/*
 * iris.h: the C API of Iris, a JavaScript engine.
 *
 * Link with the static library (target/<profile>/libiris_c.a, and -lpthread -ldl -lm) or
 * the shared one (libiris_c.so). Written by hand; iris-c's tests check that every
 * function declared here is defined by the library with the same name.
 *
 * Ownership, in one place:
 *  - A runtime (IrisRuntime) is made by iris_runtime_new and freed by iris_runtime_free.
 *    Everything else belongs to one runtime and must not be given to another.
 *  - Every IrisValue* a function returns (or writes through an out parameter) is owned by
 *    the caller and freed with iris_value_free, before or after its runtime is freed. While
 *    the caller holds it, the JavaScript value it refers to stays alive.
 *  - Values passed to a host function (this_value, argv) are borrowed for that call only.
 *  - Strings returned by iris_to_string are owned by the caller and freed with
 *    iris_string_free. Strings returned by iris_exception_* are owned by the runtime and
 *    valid until the next call on it.
 *  - Strings given to the API are UTF-8, with an explicit length where one is taken, else
 *    NUL-terminated.
 *
 * Errors: a function that can fail returns an IrisStatus. IRIS_EXCEPTION means JavaScript
 * threw (or was interrupted, or ran out of memory): iris_exception_name, _message and _stack
 * describe it until the next call on the runtime. IRIS_INVALID_ARGUMENT is a misuse (a NULL
 * pointer, a value of another runtime, invalid UTF-8, a runtime used inside a host function
 * called on it: use the one the host function is given). IRIS_INTERNAL_ERROR is a bug in
 * Iris, caught before it crossed into C; the runtime may not be usable after it. Nothing in
 * this API unwinds into C.
 *
 * Threads: a runtime and its values are used from one thread at a time. Only an
 * IrisInterrupt may be used from any thread.
 */
#ifndef IRIS_H
#define IRIS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct IrisRuntime IrisRuntime;
typedef struct IrisValue IrisValue;
typedef struct IrisInterrupt IrisInterrupt;

typedef enum IrisStatus {
    IRIS_OK = 0,
    IRIS_EXCEPTION = 1,
    IRIS_INVALID_ARGUMENT = 2,
    IRIS_INTERNAL_ERROR = 3,
} IrisStatus;

typedef enum IrisType {
    IRIS_TYPE_UNDEFINED = 0,
    IRIS_TYPE_NULL = 1,
    IRIS_TYPE_BOOLEAN = 2,
    IRIS_TYPE_NUMBER = 3,
    IRIS_TYPE_STRING = 4,
    IRIS_TYPE_SYMBOL = 5,
    IRIS_TYPE_BIGINT = 6,
    IRIS_TYPE_OBJECT = 7,
    IRIS_TYPE_FUNCTION = 8,
} IrisType;

/* How a runtime is made; iris_options_default fills in the defaults. */
typedef struct IrisOptions {
    /* The most memory JavaScript values may take, in bytes (default 3 GiB): past it,
     * allocating throws a RangeError. */
    size_t heap_limit;
    /* The most JavaScript calls under way at once (default 40000). */
    uint32_t stack_limit;
    /* The longest each call into the runtime (an eval, a call) may run, in milliseconds;
     * 0 (the default): no limit. Past it the call ends with IRIS_EXCEPTION and
     * iris_exception_interrupted is 1. */
    uint32_t time_limit_ms;
    /* Nonzero (the default): hot functions are compiled to machine code. */
    int jit;
} IrisOptions;

void iris_options_default(IrisOptions *options);

/* A new runtime; NULL if options is NULL or the runtime cannot be made. */
IrisRuntime *iris_runtime_new(const IrisOptions *options);
/* Frees the runtime (NULL is ignored). Not inside a host function called on it. */
void iris_runtime_free(IrisRuntime *rt);

/* Runs source text (len bytes of UTF-8) as a script named file_name; its completion value
 * goes to *result unless result is NULL. Top-level let/const stay for later scripts;
 * promise jobs stay queued (iris_run_jobs). */
IrisStatus iris_eval(IrisRuntime *rt, const char *source, size_t len, const char *file_name, IrisValue **result);
/* Verifies and runs a bundle written by `iris compile`; its completion value as above. */
IrisStatus iris_eval_bundle(IrisRuntime *rt, const uint8_t *bytes, size_t len, IrisValue **result);
/* Runs the queued promise jobs until none are left. */
IrisStatus iris_run_jobs(IrisRuntime *rt);
/* Collects garbage now. */
void iris_gc(IrisRuntime *rt);

/* The last IRIS_EXCEPTION: its error's name ("TypeError", ...), message and JavaScript
 * stack ("" if there was none), and whether it was an interrupt (1) or not (0). */
const char *iris_exception_name(IrisRuntime *rt);
const char *iris_exception_message(IrisRuntime *rt);
const char *iris_exception_stack(IrisRuntime *rt);
int iris_exception_interrupted(IrisRuntime *rt);

/* Stops what the runtime is running, from any thread (with an IRIS_EXCEPTION whose
 * iris_exception_interrupted is 1). The handle outlives its runtime until freed. */
IrisInterrupt *iris_interrupt_handle(IrisRuntime *rt);
void iris_interrupt(const IrisInterrupt *handle);
void iris_interrupt_handle_free(IrisInterrupt *handle);

/* New values (NULL only when rt is NULL or a string is not UTF-8). */
IrisValue *iris_undefined(IrisRuntime *rt);
IrisValue *iris_null(IrisRuntime *rt);
IrisValue *iris_bool(IrisRuntime *rt, int b);
IrisValue *iris_number(IrisRuntime *rt, double n);
IrisValue *iris_string(IrisRuntime *rt, const char *utf8, size_t len);
IrisValue *iris_object(IrisRuntime *rt);
IrisValue *iris_global(IrisRuntime *rt);
/* Another handle on the same value. */
IrisValue *iris_value_dup(const IrisValue *v);
void iris_value_free(IrisValue *v);

IrisType iris_typeof(IrisRuntime *rt, const IrisValue *v);
/* The number or boolean v is: 1 and *out set, or 0 if v is not one. */
int iris_get_number(const IrisValue *v, double *out);
int iris_get_bool(const IrisValue *v, int *out);
/* String(v), which may run JavaScript: a new NUL-terminated UTF-8 string (lone surrogates
 * become U+FFFD) in *out and its length without the NUL in *len (if len is not NULL). */
IrisStatus iris_to_string(IrisRuntime *rt, const IrisValue *v, char **out, size_t *len);
void iris_string_free(char *s);

/* obj[key] (a getter runs) into *result; obj[key] = value, as strict code does it. */
IrisStatus iris_get(IrisRuntime *rt, const IrisValue *obj, const char *key, IrisValue **result);
IrisStatus iris_set(IrisRuntime *rt, const IrisValue *obj, const char *key, const IrisValue *value);
/* f.call(this_value, ...argv); this_value NULL means undefined; result may be NULL. */
IrisStatus iris_call(IrisRuntime *rt, const IrisValue *f, const IrisValue *this_value, size_t argc,
                     const IrisValue *const *argv, IrisValue **result);

/* A host function: returns IRIS_OK with its result in *result (left NULL: undefined), or
 * IRIS_EXCEPTION after iris_throw_error. rt is the runtime to use during the call. */
typedef IrisStatus (*IrisHostFunction)(IrisRuntime *rt, void *user_data, const IrisValue *this_value, size_t argc,
                                       const IrisValue *const *argv, IrisValue **result);
/* A new function that calls fn with user_data. free_user_data (if not NULL) is called with
 * user_data when the function is collected or its runtime freed (at once if this returns
 * NULL: rt or fn NULL, name not UTF-8). */
IrisValue *iris_function(IrisRuntime *rt, const char *name, uint32_t length, IrisHostFunction fn, void *user_data,
                         void (*free_user_data)(void *user_data));
/* In a host function: the error it throws when it returns IRIS_EXCEPTION, a new error of
 * the kind name says ("TypeError", ...; Error for others) with message. */
void iris_throw_error(IrisRuntime *rt, const char *name, const char *message);

#ifdef __cplusplus
}
#endif

#endif /* IRIS_H */
