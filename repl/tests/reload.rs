//! `reload` in `play`: a house rule edited on disk in the middle of a game is swapped in when
//! it checks clean, the game replayed under it; otherwise the game goes on as it was.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// `warroom play` fed one line at a time, its output read as it comes.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_warroom"))
            .arg("--editions")
            .arg(root().join("editions"))
            .args(args)
            .env("NO_COLOR", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("run warroom");
        let stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for l in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(l).is_err() {
                    break;
                }
            }
        });
        Session { child, stdin, lines }
    }

    /// Run `command`; what it printed (read up to the echo of a marker command sent after it).
    fn run(&mut self, command: &str) -> String {
        writeln!(self.stdin, "{command}\nlayers").unwrap();
        self.stdin.flush().unwrap();
        let mut out = Vec::new();
        let mut started = false;
        loop {
            let l = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no answer to `{command}`; so far: {out:?}"));
            if l == format!("> {command}") {
                started = true;
                continue;
            }
            if started && l == "> layers" {
                return out.join("\n");
            }
            if started {
                out.push(l);
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn reload_swaps_in_an_edited_house_rule_and_keeps_the_old_rules_when_it_does_not_check() {
    let dir = std::env::temp_dir().join(format!("warroom-reload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("layer.toml"),
        "[layer]\nname = \"cheap-bombers\"\nkind = \"house\"\ntitle = \"Bombers for less\"\n\
         extends = [\"anniversary\"]\nfiles = [\"units.toml\"]\n",
    )
    .unwrap();
    let units = dir.join("units.toml");
    std::fs::write(&units, "[units.bomber]\ncost = 12\n").unwrap();
    let mut s = Session::start(&["play", "anniversary", "--with", dir.to_str().unwrap()]);
    // Germany, 31 IPCs, buys a bomber at 12.
    assert!(s.run("buy 1 bomber").contains("for 12 IPCs"));

    std::fs::write(&units, "[units.bomber]\ncost = 10\n").unwrap();
    let out = s.run("reload");
    assert!(out.contains("rules reloaded from disk"), "{out}");
    assert!(out.contains("Germany has 21 IPCs (was 19)"), "{out}");
    let why = s.run("why units.bomber.cost");
    assert!(why.contains("units.bomber.cost = 10"), "{why}");
    assert!(why.contains("units.toml:2"), "{why}");

    // A mistake in the file: the old rules stay, and the diagnostic points at the line.
    std::fs::write(&units, "[units.bomber]\ncost = \"ten\"\n").unwrap();
    let out = s.run("reload");
    assert!(
        out.starts_with("rejected: the game goes on under the rules it had"),
        "{out}"
    );
    assert!(out.contains("units.toml:2"), "{out}");
    assert!(s.run("status").contains("treasury   21"));

    // Rules under which the game so far could not have been played: refused, with the command.
    std::fs::write(&units, "[units.bomber]\ncost = 40\n").unwrap();
    let out = s.run("reload");
    assert!(
        out.contains("command 1 of this game, `buy 1 bomber`, is refused under the new rules"),
        "{out}"
    );
    assert!(s.run("why units.bomber.cost").contains("units.bomber.cost = 10"));
    // The game goes on.
    assert!(s.run("buy 1 infantry").contains("Germany buys 1 Infantry"));
    let _ = std::fs::remove_dir_all(&dir);
}
