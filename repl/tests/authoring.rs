//! docs/authoring.md, tried as a new user would: every file it shows is written, in order, into
//! a fresh folder, and every command it shows is run there; what the guide says a command
//! prints must appear in what it prints, in order. A snippet the test cannot check fails it.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

enum Snippet {
    /// A whole file, at a path relative to the working folder.
    File { path: String, text: String, line: usize },
    /// `$ warroom ...` commands, each with its stdin (`> ` lines) and the lines it must print.
    Console { runs: Vec<Run> },
}

struct Run {
    args: Vec<String>,
    stdin: String,
    expect: Vec<String>,
    line: usize,
}

/// Split a command line as a shell would for the guide's simple quoting ("..." and '...').
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut any = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                any = true;
            }
            (None, c) if c.is_whitespace() => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                    any = false;
                }
            }
            (None, c) => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

fn snippets(doc: &str) -> Vec<Snippet> {
    let mut out = Vec::new();
    let mut lines = doc.lines().enumerate();
    while let Some((n, l)) = lines.next() {
        let Some(info) = l.strip_prefix("```") else {
            continue;
        };
        let mut body = Vec::new();
        for (_, b) in lines.by_ref() {
            if b.starts_with("```") {
                break;
            }
            body.push(b);
        }
        let info: Vec<&str> = info.split_whitespace().collect();
        match info.as_slice() {
            [_, file] if file.starts_with("file=") => out.push(Snippet::File {
                path: file["file=".len()..].to_string(),
                text: body.join("\n") + "\n",
                line: n + 1,
            }),
            ["console"] => {
                let mut runs: Vec<Run> = Vec::new();
                for (i, b) in body.iter().enumerate() {
                    if let Some(cmd) = b.strip_prefix("$ warroom ") {
                        runs.push(Run {
                            args: words(cmd),
                            stdin: String::new(),
                            expect: Vec::new(),
                            line: n + 2 + i,
                        });
                        continue;
                    }
                    let run = runs
                        .last_mut()
                        .unwrap_or_else(|| panic!("docs/authoring.md:{}: output before a command", n + 2 + i));
                    if let Some(input) = b.strip_prefix("> ") {
                        run.stdin.push_str(input);
                        run.stdin.push('\n');
                    }
                    if !b.trim().is_empty() {
                        run.expect.push(b.trim().to_string());
                    }
                }
                assert!(!runs.is_empty(), "docs/authoring.md:{}: a console block with no command", n + 1);
                out.push(Snippet::Console { runs });
            }
            other => panic!(
                "docs/authoring.md:{}: a snippet this test cannot check ({other:?}); use `LANG file=PATH` or `console`",
                n + 1
            ),
        }
    }
    out
}

#[test]
fn the_authoring_guide_works_as_written() {
    let doc = std::fs::read_to_string(root().join("docs/authoring.md")).expect("docs/authoring.md");
    let dir = std::env::temp_dir().join(format!("warroom-authoring-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let all = snippets(&doc);
    let (mut files, mut commands) = (0, 0);
    for s in &all {
        match s {
            Snippet::File { path, text, line } => {
                assert!(
                    !path.starts_with('/') && !path.contains(".."),
                    "docs/authoring.md:{line}: {path}"
                );
                let p = dir.join(path);
                std::fs::create_dir_all(p.parent().unwrap()).unwrap();
                std::fs::write(&p, text).unwrap();
                files += 1;
            }
            Snippet::Console { runs } => {
                for r in runs {
                    let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
                        .args(&r.args)
                        .current_dir(&dir)
                        .env("WARROOM_EDITIONS", root().join("editions"))
                        .env("NO_COLOR", "1")
                        .stdin(Stdio::piped())
                        .stdout(Stdio::piped())
                        .stderr(Stdio::piped())
                        .spawn()
                        .expect("run warroom");
                    child.stdin.take().unwrap().write_all(r.stdin.as_bytes()).unwrap();
                    let o = child.wait_with_output().unwrap();
                    let printed = format!(
                        "{}{}",
                        String::from_utf8_lossy(&o.stdout),
                        String::from_utf8_lossy(&o.stderr)
                    );
                    // Each expected line, in order, within some printed line.
                    let lines: Vec<&str> = printed.lines().map(str::trim).collect();
                    let mut at = 0;
                    for e in &r.expect {
                        match lines[at..].iter().position(|l| l.contains(e.as_str())) {
                            Some(k) => at += k + 1,
                            None => panic!(
                                "docs/authoring.md:{}: `warroom {}` did not print `{e}` (in order); it printed:\n{printed}",
                                r.line,
                                r.args.join(" ")
                            ),
                        }
                    }
                    commands += 1;
                }
            }
        }
    }
    assert!(files >= 8 && commands >= 10, "{files} files, {commands} commands");
    let _ = std::fs::remove_dir_all(&dir);
}
