//! What a failed Playwright run says about its failures, for the end of `cargo xtask test`'s
//! output: a CI log is often read from its tail, where the list reporter's error messages (printed
//! as each test fails) are long gone. Each suite's config adds a JSON reporter; this reads it.

use std::path::Path;

/// How many lines of each failure's message are kept.
const LINES: usize = 12;

/// The failed tests of the JSON report at `path`, one entry each: the project, the spec's place
/// and title, then the first lines of its error (colour codes removed). Empty when the report is
/// missing or unreadable (the run's own error then says what happened).
pub(crate) fn failures(path: &Path) -> Vec<String> {
    let Ok(text) = std::fs::read_to_string(path) else { return Vec::new() };
    let Ok(report) = serde_json::from_str::<serde_json::Value>(&text) else { return Vec::new() };
    let mut out = Vec::new();
    for suite in report["suites"].as_array().into_iter().flatten() {
        collect(suite, &mut Vec::new(), &mut out);
    }
    for error in report["errors"].as_array().into_iter().flatten() {
        out.push(format!("  (outside any test)\n{}", excerpt(error["message"].as_str().unwrap_or(""))));
    }
    out
}

/// The failures of `suite` and the suites in it, `titles` being the titles of the suites above.
fn collect(suite: &serde_json::Value, titles: &mut Vec<String>, out: &mut Vec<String>) {
    let title = suite["title"].as_str().unwrap_or_default();
    let named = !title.is_empty() && suite["file"].as_str() != Some(title);
    if named {
        titles.push(title.to_string());
    }
    for spec in suite["specs"].as_array().into_iter().flatten() {
        for test in spec["tests"].as_array().into_iter().flatten() {
            if test["status"].as_str() != Some("unexpected") {
                continue;
            }
            let place = format!("{}:{}", spec["file"].as_str().unwrap_or("?"), spec["line"].as_u64().unwrap_or(0));
            let mut name = titles.clone();
            name.push(spec["title"].as_str().unwrap_or_default().to_string());
            let last = test["results"].as_array().and_then(|r| r.last());
            let messages: Vec<&str> = last
                .and_then(|r| r["errors"].as_array())
                .into_iter()
                .flatten()
                .filter_map(|e| e["message"].as_str())
                .collect();
            let status = last.and_then(|r| r["status"].as_str()).unwrap_or("failed");
            let project = test["projectName"].as_str().unwrap_or_default();
            let mut entry = format!("  [{project}] {place} › {} ({status})", name.join(" › "));
            for m in messages {
                entry.push('\n');
                entry.push_str(&excerpt(m));
            }
            out.push(entry);
        }
    }
    for inner in suite["suites"].as_array().into_iter().flatten() {
        collect(inner, titles, out);
    }
    if named {
        titles.pop();
    }
}

/// The first lines of a message, indented, without terminal colour codes.
fn excerpt(message: &str) -> String {
    let mut plain = String::with_capacity(message.len());
    let mut chars = message.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            // CSI: parameters up to the final letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        plain.push(c);
    }
    let lines: Vec<&str> = plain.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut text: Vec<String> = lines.iter().take(LINES).map(|l| format!("      {l}")).collect();
    // The stack's places (`at file:line`) are kept past the cut: they name the spec's line when
    // the assertion is in a helper.
    let rest = lines.iter().skip(LINES);
    let (places, others): (Vec<&&str>, Vec<&&str>) = rest.partition(|l| l.trim_start().starts_with("at "));
    text.extend(places.iter().map(|l| format!("      {}", l.trim_start())));
    if !others.is_empty() {
        text.push(format!("      … ({} more lines)", others.len()));
    }
    text.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_test_is_named_with_its_error_and_a_passed_one_is_not() {
        let report = serde_json::json!({
            "suites": [{
                "title": "engines/reader.spec.ts",
                "file": "engines/reader.spec.ts",
                "specs": [],
                "suites": [{
                    "title": "a reader, in every engine",
                    "file": "engines/reader.spec.ts",
                    "specs": [{
                        "title": "embed mode",
                        "file": "engines/reader.spec.ts",
                        "line": 205,
                        "tests": [
                            { "projectName": "webkit", "status": "expected", "results": [{ "status": "passed", "errors": [] }] },
                            { "projectName": "firefox", "status": "unexpected", "results": [{
                                "status": "failed",
                                "errors": [{ "message": "\u{1b}[31mError: expect(received).toBe(expected)\u{1b}[39m\n\nExpected: 2\nReceived: 3" }]
                            }] }
                        ]
                    }]
                }]
            }],
            "errors": []
        });
        let dir = std::env::temp_dir().join(format!("xtask-playwright-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("results.json");
        std::fs::write(&path, report.to_string()).unwrap();
        let found = failures(&path);
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(
            found,
            [concat!(
                "  [firefox] engines/reader.spec.ts:205 › a reader, in every engine › embed mode (failed)\n",
                "      Error: expect(received).toBe(expected)\n",
                "      Expected: 2\n",
                "      Received: 3"
            )]
        );
    }

    #[test]
    fn a_missing_report_names_nothing() {
        assert!(failures(Path::new("/nonexistent/results.json")).is_empty());
    }

    #[test]
    fn a_long_message_is_cut_but_keeps_the_stack_places() {
        let mut message: String = (0..20).map(|i| format!("line {i}\n")).collect();
        message.push_str("    at engines/reader.spec.ts:207:5\n");
        let text = excerpt(&message);
        assert_eq!(text.lines().count(), LINES + 2);
        assert!(text.contains("\n      at engines/reader.spec.ts:207:5\n"), "{text}");
        assert!(text.ends_with("… (8 more lines)"), "{text}");
    }
}
