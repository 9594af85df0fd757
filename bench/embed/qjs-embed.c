/*
 * Embedding overhead through QuickJS's C API, the same work as iris-embed.c: an empty C
 * function called 10 million times from JavaScript, and a JavaScript function called
 * 1 million times from C. Prints milliseconds for each part.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "quickjs.h"

static JSValue empty(JSContext *ctx, JSValueConst this_val, int argc, JSValueConst *argv) {
    (void)ctx, (void)this_val, (void)argc, (void)argv;
    return JS_UNDEFINED;
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(void) {
    JSRuntime *rt = JS_NewRuntime();
    JSContext *ctx = JS_NewContext(rt);
    JSValue global = JS_GetGlobalObject(ctx);
    JS_SetPropertyStr(ctx, global, "f", JS_NewCFunction(ctx, empty, "f", 0));

    const char *loop = "for (let i = 0; i < 1e7; i++) f()";
    double t0 = now_ms();
    JSValue r = JS_Eval(ctx, loop, strlen(loop), "loop.js", JS_EVAL_TYPE_GLOBAL);
    if (JS_IsException(r))
        return 1;
    JS_FreeValue(ctx, r);
    double t1 = now_ms();

    const char *id = "(function (x) { return x })";
    JSValue g = JS_Eval(ctx, id, strlen(id), "id.js", JS_EVAL_TYPE_GLOBAL);
    JSValue arg = JS_NewFloat64(ctx, 1);
    double t2 = now_ms();
    for (int i = 0; i < 1000000; i++) {
        JSValue v = JS_Call(ctx, g, JS_UNDEFINED, 1, &arg);
        if (JS_IsException(v))
            return 1;
        JS_FreeValue(ctx, v);
    }
    double t3 = now_ms();
    printf("host function from JS x10M: %.0f ms\nJS function from host x1M: %.0f ms\n", t1 - t0, t3 - t2);
    JS_FreeValue(ctx, g);
    JS_FreeValue(ctx, global);
    JS_FreeContext(ctx);
    JS_FreeRuntime(rt);
    return 0;
}
