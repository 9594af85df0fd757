//! Matching tests compared with node.

use super::*;

fn units(s: &str) -> Vec<u16> {
    s.split(',')
        .filter(|x| !x.is_empty())
        .map(|x| u16::from_str_radix(x, 16).unwrap())
        .collect()
}

fn show(s: &[u16]) -> String {
    s.iter()
        .map(|u| format!("{u:x}"))
        .collect::<Vec<_>>()
        .join(",")
}

/// Reads cases from $REGEXP_CASES (lines `pattern flags input lastIndex`, strings as
/// comma-separated hex code units) and prints one result line per case.
#[test]
#[ignore]
fn explore() {
    let path = std::env::var("REGEXP_CASES").unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    use std::io::Write;
    let mut out = std::fs::File::create(std::env::var("REGEXP_OUT").unwrap()).unwrap();
    for line in text.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        let (p, fl, s, li) = (units(f[0]), units(f[1]), units(f[2]), f[3].parse().unwrap());
        let run = |probe: bool| {
            SHORT_INPUT_OVERRIDE.with(|o| o.set(probe.then_some(0)));
            let r = run_case(&p, &fl, &s, li);
            SHORT_INPUT_OVERRIDE.with(|o| o.set(None));
            r
        };
        let (native, probe) = (run(false), run(true));
        let r = if native == probe {
            native
        } else {
            format!("MISMATCH {native} / {probe}")
        };
        writeln!(out, "{r}").unwrap();
        out.flush().unwrap();
    }
}

fn run_case(p: &[u16], fl: &[u16], s: &[u16], li: usize) -> String {
    match CompiledRegExp::new(p, fl) {
        Err(e) => format!("ERR {}", e.message),
        Ok(re) => match re.exec_at(s, li, &|| false) {
            Err(e) => format!("EXEC {e:?}"),
            Ok(None) => "null".to_string(),
            Ok(Some(m)) => {
                let mut parts = vec![m.start().to_string()];
                for g in &m.captures {
                    parts.push(match g {
                        Some(r) => show(&s[r.clone()]),
                        None => "undefined".to_string(),
                    });
                }
                parts.join("|")
            }
        },
    }
}
