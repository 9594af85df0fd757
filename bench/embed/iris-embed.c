/*
 * Embedding overhead through iris.h: an empty host function called 10 million times from
 * JavaScript, and a JavaScript function called 1 million times from the host. The same
 * work as qjs-embed.c does through QuickJS's C API. Prints milliseconds for each part.
 *   iris-embed [nojit]      (see README.md in this directory for the build)
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "iris.h"

static IrisStatus empty(IrisRuntime *rt, void *user_data, const IrisValue *this_value, size_t argc,
                        const IrisValue *const *argv, IrisValue **result) {
    (void)rt, (void)user_data, (void)this_value, (void)argc, (void)argv, (void)result;
    return IRIS_OK;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    IrisOptions options;
    iris_options_default(&options);
    if (argc > 1 && strcmp(argv[1], "nojit") == 0)
        options.jit = 0;
    IrisRuntime *rt = iris_runtime_new(&options);
    IrisValue *f = iris_function(rt, "f", 0, empty, NULL, NULL);
    IrisValue *global = iris_global(rt);
    iris_set(rt, global, "f", f);

    const char *loop = "for (let i = 0; i < 1e7; i++) f()";
    double t0 = now_ms();
    if (iris_eval(rt, loop, strlen(loop), "loop.js", NULL) != IRIS_OK)
        return 1;
    double t1 = now_ms();

    const char *id = "(function (x) { return x })";
    IrisValue *g = NULL;
    if (iris_eval(rt, id, strlen(id), "id.js", &g) != IRIS_OK)
        return 1;
    IrisValue *arg = iris_number(rt, 1);
    double t2 = now_ms();
    for (int i = 0; i < 1000000; i++) {
        IrisValue *r = NULL;
        if (iris_call(rt, g, NULL, 1, (const IrisValue *const *)&arg, &r) != IRIS_OK)
            return 1;
        iris_value_free(r);
    }
    double t3 = now_ms();
    printf("host function from JS x10M: %.0f ms\nJS function from host x1M: %.0f ms\n", t1 - t0, t3 - t2);
    iris_value_free(arg);
    iris_value_free(g);
    iris_value_free(f);
    iris_value_free(global);
    iris_runtime_free(rt);
    return 0;
}
