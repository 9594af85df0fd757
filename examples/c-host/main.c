/*
 * An app in C that embeds Iris through iris.h (./test.sh builds and runs it):
 *  1. a host function that JavaScript calls (host_log, with user data: the lines so far),
 *  2. a JavaScript callback that the host calls (onTick, which the script defines),
 *  3. a time limit that stops an endless loop, after which the runtime goes on.
 *
 *   cargo build -p iris-c
 *   cc -Iiris-c/include examples/c-host/main.c target/debug/libiris_c.a -lpthread -ldl -lm -o c-host
 */
#include <stdio.h>
#include <string.h>

#include "iris.h"

/* The host function's user data. */
typedef struct {
    int lines;
} Log;

static IrisStatus host_log(IrisRuntime *rt, void *user_data, const IrisValue *this_value, size_t argc,
                           const IrisValue *const *argv, IrisValue **result) {
    (void)this_value;
    Log *log = user_data;
    if (argc < 1) {
        iris_throw_error(rt, "TypeError", "log needs a line");
        return IRIS_EXCEPTION;
    }
    char *text = NULL;
    IrisStatus s = iris_to_string(rt, argv[0], &text, NULL);
    if (s != IRIS_OK)
        return s;
    log->lines++;
    printf("log %d: %s\n", log->lines, text);
    iris_string_free(text);
    *result = iris_number(rt, log->lines);
    return IRIS_OK;
}

static void free_log(void *user_data) {
    printf("the log's user data is freed after %d lines\n", ((Log *)user_data)->lines);
}

static int eval(IrisRuntime *rt, const char *source, IrisValue **result) {
    IrisStatus s = iris_eval(rt, source, strlen(source), "app.js", result);
    if (s != IRIS_OK) {
        printf("%s: %s (interrupted: %d)\n", iris_exception_name(rt), iris_exception_message(rt),
               iris_exception_interrupted(rt));
        return 0;
    }
    return 1;
}

int main(void) {
    IrisOptions options;
    iris_options_default(&options);
    options.time_limit_ms = 250;
    IrisRuntime *rt = iris_runtime_new(&options);
    if (!rt)
        return 1;

    /* 1. A host function JavaScript calls. */
    static Log log = {0};
    IrisValue *fn = iris_function(rt, "log", 1, host_log, &log, free_log);
    IrisValue *global = iris_global(rt);
    iris_set(rt, global, "log", fn);
    iris_value_free(fn);
    if (!eval(rt, "log('script started'); let ticks = 0; function onTick(n) { ticks += n; return ticks * 10 }", NULL))
        return 1;
    eval(rt, "log()", NULL);

    /* 2. The host calls a JavaScript callback. */
    IrisValue *on_tick = NULL;
    if (iris_get(rt, global, "onTick", &on_tick) != IRIS_OK || iris_typeof(rt, on_tick) != IRIS_TYPE_FUNCTION)
        return 1;
    for (int n = 1; n <= 3; n++) {
        IrisValue *arg = iris_number(rt, n);
        IrisValue *r = NULL;
        double value = 0;
        if (iris_call(rt, on_tick, NULL, 1, (const IrisValue *const *)&arg, &r) == IRIS_OK && iris_get_number(r, &value))
            printf("onTick(%d) = %g\n", n, value);
        iris_value_free(arg);
        iris_value_free(r);
    }
    iris_value_free(on_tick);

    /* 3. The time limit stops an endless loop; catch cannot hold it. */
    eval(rt, "try { for (;;) {} } catch (e) { 'caught' }", NULL);
    IrisValue *ticks = NULL;
    double n = 0;
    if (eval(rt, "ticks", &ticks) && iris_get_number(ticks, &n))
        printf("the runtime goes on: ticks = %g\n", n);
    iris_value_free(ticks);
    iris_value_free(global);
    iris_runtime_free(rt);
    return 0;
}
