//! The kubectl panel: a prompt answered through [`crate::render::kubectl_printer::entry`] for the
//! cluster at the playhead (the output follows the playhead, like `watch kubectl ...`),
//! suggestions, and a shell-like history recalled with the arrow keys. `cordon`, `uncordon`,
//! `drain`, `taint`, `delete node` and `delete pod` become the reader's action at the playhead;
//! their output is what kubectl has printed by the playhead.

use crate::i18n::{Key, Lang};
use crate::render::kubectl_printer::Output;
use crate::render::kubectl_printer::logs::Note;
use crate::view::html::{cat, escape};

/// Most commands kept in the history.
pub const HISTORY_CAP: usize = 50;

/// The commands offered as suggestions, for the Node being inspected.
pub fn suggestions(node: &str) -> Vec<String> {
    vec![
        "kubectl get nodes".into(),
        "kubectl get nodes -o wide".into(),
        format!("kubectl describe node {node}"),
        "kubectl get lease -n kube-node-lease".into(),
        "kubectl get pods -o wide".into(),
        "kubectl get events".into(),
        "kubectl get nodes -o yaml".into(),
        "kubectl get nodes -o json".into(),
        "kubectl get lease -n kube-node-lease -o yaml".into(),
        "kubectl get csinodes".into(),
        "kubectl get pdb".into(),
        "kubectl describe pdb".into(),
        "kubectl get sts,pvc,pv".into(),
        "kubectl get volumeattachments".into(),
        "kubectl describe sts db".into(),
        "kubectl describe pvc data-db-0".into(),
        "kubectl describe pv".into(),
        "kubectl describe volumeattachments".into(),
        format!("kubectl cordon {node}"),
        format!("kubectl drain {node} --ignore-daemonsets"),
        format!("kubectl uncordon {node}"),
    ]
}

/// The suggestions as buttons (their `data-cmd` is the command they run).
pub fn suggestions_markup(node: &str) -> String {
    let mut o = String::new();
    for c in suggestions(node) {
        let c = escape(&c);
        cat(&mut o, &[r#"<button type="button" class="suggestion" data-cmd=""#, &c, r#"">"#, &c, "</button>"]);
    }
    o
}

/// Commands typed so far, and where the arrow keys are in them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct History {
    entries: Vec<String>,
    /// `entries.len()` while editing a new line.
    pos: usize,
    /// The line being edited before the arrows were used.
    draft: String,
}

impl History {
    /// Remembers a command run (not blanks, nor the same command twice in a row), and goes back
    /// to a new line.
    pub fn push(&mut self, command: &str) {
        let command = command.trim();
        if !command.is_empty() && self.entries.last().map(String::as_str) != Some(command) {
            self.entries.push(command.to_string());
            if self.entries.len() > HISTORY_CAP {
                self.entries.remove(0);
            }
        }
        self.pos = self.entries.len();
        self.draft.clear();
    }

    /// ↑: the previous command (`current` is kept to come back to), or `None` at the oldest.
    pub fn up(&mut self, current: &str) -> Option<String> {
        if self.pos == 0 {
            return None;
        }
        if self.pos == self.entries.len() {
            self.draft = current.to_string();
        }
        self.pos -= 1;
        self.entries.get(self.pos).cloned()
    }

    /// ↓: the next command, then the line being edited; `None` when already there.
    pub fn down(&mut self) -> Option<String> {
        if self.pos >= self.entries.len() {
            return None;
        }
        self.pos += 1;
        if self.pos == self.entries.len() { Some(self.draft.clone()) } else { self.entries.get(self.pos).cloned() }
    }

    /// The commands, oldest first.
    pub fn entries(&self) -> &[String] {
        &self.entries
    }
}

/// The command line as typed, with `kubectl` in front if it was left out.
pub fn normalize(line: &str) -> String {
    let line = line.trim();
    if line == "kubectl" || line.starts_with("kubectl ") { line.to_string() } else { format!("kubectl {line}") }
}

/// The transcript: the prompt and command, then stdout, then stderr (marked as such).
pub fn output_markup(line: &str, out: &Output) -> String {
    let mut o = String::new();
    cat(
        &mut o,
        &[
            r#"<span class="prompt" aria-hidden="true">$ </span><span class="cmd">"#,
            &escape(line),
            "</span>\n",
            &escape(&out.stdout),
        ],
    );
    if !out.stderr.is_empty() {
        cat(&mut o, &[r#"<span class="stderr">"#, &escape(&out.stderr), "</span>"]);
    }
    o
}

/// The catalogue's note for a `logs` or `exec` a real kubelet would have answered with output.
pub fn note_key(note: Note) -> Key {
    match note {
        Note::NoContainerOutput => Key::KubectlNoContainerOutput,
        Note::NoCommandRun => Key::KubectlNoCommandRun,
    }
}

/// nodeline's note, below kubectl's transcript and apart from it (not in the `<pre>`).
pub fn note_markup(note: Option<Note>, lang: Lang) -> String {
    match note {
        Some(n) => format!(r#"<p class="kubectl-note" role="note">{}</p>"#, escape(lang.text(note_key(n)))),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::kubectl_printer::entry::CommandLine;
    use crate::sim::{Chapter, Config, SimTime, Timeline};

    /// What the panel shows for a read typed at `t`.
    fn run(line: &str, tl: &Timeline, t: SimTime) -> Output {
        let snapshot = tl.at(t);
        CommandLine::parse_typed(line, &snapshot).run(t, |_| unreachable!("a read")).output(tl.log(), &snapshot)
    }

    #[test]
    fn history_walks_like_a_shell() {
        let mut h = History::default();
        assert_eq!(h.up("typing"), None);
        h.push("kubectl get nodes");
        h.push("kubectl get nodes");
        h.push("  ");
        h.push("kubectl get pods");
        assert_eq!(h.entries(), ["kubectl get nodes", "kubectl get pods"]);
        assert_eq!(h.up("kubectl desc").as_deref(), Some("kubectl get pods"));
        assert_eq!(h.up("ignored").as_deref(), Some("kubectl get nodes"));
        assert_eq!(h.up("ignored"), None);
        assert_eq!(h.down().as_deref(), Some("kubectl get pods"));
        assert_eq!(h.down().as_deref(), Some("kubectl desc"), "back to the line being edited");
        assert_eq!(h.down(), None);
        for i in 0..(HISTORY_CAP + 5) {
            h.push(&format!("kubectl get node n{i}"));
        }
        assert_eq!(h.entries().len(), HISTORY_CAP);
    }

    #[test]
    fn output_is_the_render_and_escaped() {
        let mut tl = Timeline::new(Chapter::Registration, Config::default());
        tl.run_until(SimTime::from_secs(100));
        let t = SimTime::from_secs(90);
        let out = run("get nodes", &tl, t);
        assert_eq!(out.stdout, "NAME     STATUS   ROLES    AGE   VERSION\nnode-1   Ready    <none>   90s   v1.34.1\n");
        let html = output_markup(&normalize("get nodes"), &out);
        assert!(html.contains(r#"<span class="cmd">kubectl get nodes</span>"#));
        assert!(html.contains("node-1   Ready    &lt;none&gt;   90s"), "{html}");
        let err = run("kubectl get foo", &tl, t);
        assert_eq!(err.code, 1);
        assert!(output_markup("kubectl get foo", &err).ends_with(
            "<span class=\"stderr\">error: the server doesn&#39;t have a resource type &quot;foo&quot;\n</span>"
        ));
        assert_eq!(normalize("  kubectl get nodes "), "kubectl get nodes");
        assert_eq!(suggestions("node-2")[2], "kubectl describe node node-2");
    }

    #[test]
    fn the_storage_suggestions_describe_chapter_six_s_objects() {
        let mut tl = Timeline::new(Chapter::NodeGoesAway, Config::default());
        let t = SimTime::from_secs(20 * 60);
        tl.run_until(t);
        let describes: Vec<String> =
            suggestions("node-1").into_iter().filter(|c| c.starts_with("kubectl describe ")).collect();
        for (command, first_line) in [
            ("kubectl describe sts db", "Name:               db\n"),
            ("kubectl describe pvc data-db-0", "Name:          data-db-0\n"),
            ("kubectl describe pv", "Name:            pvc-"),
            ("kubectl describe volumeattachments", "Name:         csi-"),
        ] {
            assert!(describes.iter().any(|c| c == command), "{command} is suggested");
            let out = run(command, &tl, t);
            assert_eq!((out.code, out.stderr.as_str()), (0, ""), "{command}");
            assert!(out.stdout.starts_with(first_line), "{command}: {}", out.stdout);
        }
    }
}
