//! Diagnostics on the terminal: miette's graphical report, without colour when not a terminal
//! so piped output and tests read the same text.

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme};
use std::io::IsTerminal;

pub fn report(diag: &dyn Diagnostic) -> String {
    let theme = if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(100);
    let mut out = String::new();
    if handler.render_report(&mut out, diag).is_err() {
        out = diag.to_string();
    }
    out
}

/// Print every problem of a failed load, then a count.
pub fn problems(problems: &warroom_core::diag::Problems) {
    for p in problems.iter() {
        eprintln!("{}", report(p));
    }
    eprintln!("{} problem(s)", problems.len());
}
