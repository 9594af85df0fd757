//! A regular expression: flags, pattern and subject → compile → every match in turn, with
//! the matcher's interrupt polled against a time limit. The input is
//! `flags \n pattern \n subject` (UTF-8; lines past the third belong to the subject); a
//! subject whose units all fit in a byte is matched as Latin-1 as well as UTF-16.
#![no_main]

use ecma::regexp::{CompiledRegExp, Subject};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let mut parts = text.splitn(3, '\n');
    let (Some(flags), Some(pattern)) = (parts.next(), parts.next()) else { return };
    let subject: Vec<u16> = parts.next().unwrap_or("").encode_utf16().collect();
    let flags: Vec<u16> = flags.encode_utf16().collect();
    let pattern: Vec<u16> = pattern.encode_utf16().collect();
    let Ok(re) = CompiledRegExp::new(&pattern, &flags) else { return };
    let deadline = std::time::Instant::now() + iris_fuzz::TIME_LIMIT;
    let interrupt = || std::time::Instant::now() > deadline;
    let latin1: Option<Vec<u8>> = subject.iter().map(|&u| u8::try_from(u).ok()).collect();
    let mut subjects = vec![Subject::Utf16(&subject)];
    if let Some(bytes) = &latin1 {
        subjects.push(Subject::Latin1(bytes));
    }
    for input in subjects {
        let mut at = 0;
        while at <= subject.len() {
            match re.exec_at(input, at, &interrupt) {
                Ok(Some(m)) => {
                    assert!(m.start() <= m.end() && m.end() <= subject.len());
                    for g in 0..=re.group_count() {
                        if let Some(r) = m.group(g) {
                            assert!(r.start <= r.end && r.end <= subject.len());
                        }
                    }
                    at = m.end().max(at + 1);
                }
                Ok(None) => break,
                Err(_) => return,
            }
        }
    }
});
