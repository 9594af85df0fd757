//! `JSON.parse` of any text (and `JSON.stringify` of what it gives, with and without a
//! reviver and indentation), run as a script under a time, heap and stack limit. A
//! SyntaxError is an ordinary outcome.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = iris_fuzz::js_string_literal(String::from_utf8_lossy(data).encode_utf16());
    let script = format!(
        "const v = JSON.parse({text});\n\
         JSON.stringify(v);\n\
         JSON.stringify(JSON.parse({text}, (k, x) => typeof x === 'number' ? [k, x] : x), null, 2);"
    );
    let mut rt = iris_fuzz::runtime(false);
    let _ = iris_fuzz::limited(&mut rt, |rt| rt.run_script(&script, "json.js"));
});
