//! The sandbox inputs, and the `ACTION[:TARGET]@TIME` notation shared by the command line and
//! the page's URL (`kill-kubelet@2m,start-kubelet:node-1@9m30s`). Each action is declared once, in
//! the registry ([`ACTIONS`]): its name, target, group, flags and what it does.

use std::fmt;

use serde::Serialize;

mod registry;
mod taint;

pub use registry::{ACTIONS, Flags, Group, Spec, Target};
pub use taint::TaintEdit;

use super::objects::IntOrPercent;
use super::selector::SelectorText;
use super::time::{SimTime, format_go_duration, parse_go_duration};

/// What the reader (or a chapter's script) can do to the cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ActionKind {
    KillKubelet,
    StartKubelet,
    StopRuntime,
    StartRuntime,
    CutNetwork,
    RestoreNetwork,
    CreatePod,
    CreateToleratingPod,
    /// A Pod with no resource requests (BestEffort) pinned to the machine's node.
    CreateBestEffortPod,
    /// The PriorityClass `high-priority` (if there is none) and a Pod of that class pinned to
    /// the machine's node.
    CreatePriorityPod,
    AddMachine,
    AddDuplicateMachine,
    LabelNodeRole,
    /// `kubectl cordon NODE`.
    Cordon,
    /// `kubectl uncordon NODE`.
    Uncordon,
    /// `kubectl drain NODE` with its flags.
    Drain(DrainFlags),
    /// `kubectl create pdb` over the chapter's Deployment (`app=web`).
    CreatePdb(Budget),
    /// `kubectl apply` of a DaemonSet (a node agent in `kube-system`).
    CreateDaemonSet,
    /// `kubectl apply` of a Deployment `cache` (one replica) pinned to the machine's node, keeping
    /// scratch data in an `emptyDir`.
    CreateCache,
    /// `systemctl poweroff` on the machine: graceful node shutdown when the kubelet has it.
    Shutdown,
    /// The machine loses power at once.
    PowerOff,
    /// `kubectl delete node NODE` (the machine's Node).
    DeleteNode,
    /// `kubectl taint nodes NODE node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`.
    TaintOutOfService,
    /// `kubectl taint nodes NODE node.kubernetes.io/out-of-service-`.
    UntaintOutOfService,
    /// `kubectl taint nodes NODE SPEC [--overwrite]`, any taint (`taint[+overwrite]:NODE/SPEC`).
    Taint {
        overwrite: bool,
    },
    /// `kubectl apply` of a StatefulSet `db` (one replica, one volume).
    CreateStatefulSet,
    /// Cuts every kubelet of a zone off the API server (`cut-zone:ZONE`).
    CutZone,
    /// Restores every cut kubelet of a zone (`restore-zone:ZONE`).
    RestoreZone,
    /// The API server hears no kubelet at all (the control plane's own network is cut).
    CutControlPlane,
    /// Every kubelet reaches the API server again.
    RestoreControlPlane,
    /// Cuts the first K still-connected kubelets of a zone in one gesture (`cut-nodes:ZONE/K`).
    CutNodes,
    /// `kubectl delete pod NAME [-n NS]` with its flags (`delete-pod:NS/NAME`).
    DeletePod(DeleteFlags),
    /// The Pod's container starts leaking memory (`leak-memory:NS/NAME`).
    LeakMemory,
    /// The Pod's leak stops growing (`stop-leak:NS/NAME`).
    StopLeak,
    /// `kubectl certificate approve NAME` (`approve-csr:NAME`).
    ApproveCsr,
    /// `kubectl certificate deny NAME` (`deny-csr:NAME`).
    DenyCsr,
    /// `kubectl -n kube-system delete secret bootstrap-token-<id>`: the bootstrap token is gone.
    DeleteBootstrapToken,
    /// `kubectl delete clusterrolebinding kubeadm:node-autoapprove-bootstrap`: csrapproving's
    /// SubjectAccessReview for `nodeclient` is refused from then on.
    DeleteAutoApproveBinding,
    /// `kubectl logs POD [-c CONTAINER] [-n NS]` (`logs:NS/NAME[/CONTAINER]`): it reads, and
    /// changes nothing.
    Logs,
    /// `kubectl exec POD [-c CONTAINER] [-n NS] -- CMD...` (`exec:NS/NAME[/CONTAINER]`; the
    /// command is not kept: nodeline runs nothing in a container).
    Exec,
}

impl ActionKind {
    /// Whether the action only reads (`kubectl logs`, `kubectl exec`, whose command nodeline does
    /// not run): the chapter's script goes on past it, and later actions stay.
    pub fn reads(self) -> bool {
        matches!(self, ActionKind::Logs | ActionKind::Exec)
    }
}

/// The flags of `kubectl delete pod` the simulation models, as `DeleteOptions.Complete` leaves
/// them (`--now` is `--grace-period=1`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DeleteFlags {
    /// `--grace-period` (`None`: kubectl's -1, the Pod's own).
    pub grace_period: Option<u32>,
    pub force: bool,
    /// `--wait=false`: do not wait for the Pod to be gone.
    pub no_wait: bool,
}

impl DeleteFlags {
    /// The grace period kubectl sends (`DeleteOptions.Complete`): `--force` without one is 0,
    /// and 0 without `--force` becomes 1.
    pub fn effective_grace(&self) -> Option<u32> {
        match (self.grace_period, self.force) {
            (None, true) => Some(0),
            (Some(0), false) => Some(1),
            (g, _) => g,
        }
    }

    fn suffix(&self) -> String {
        let mut s = String::new();
        if let Some(g) = self.grace_period {
            s.push_str(&format!("+grace-period={g}"));
        }
        if self.force {
            s.push_str("+force");
        }
        if self.no_wait {
            s.push_str("+wait=false");
        }
        s
    }

    fn set(&mut self, flag: &str) -> Result<(), String> {
        match flag.split_once('=') {
            None if flag == "force" => self.force = true,
            Some(("grace-period", v)) => {
                self.grace_period =
                    Some(v.parse().map_err(|_| format!("grace-period \"{v}\" is not a number of seconds"))?)
            }
            Some(("wait", "false")) => self.no_wait = true,
            Some(("wait", "true")) => self.no_wait = false,
            _ => return Err(format!("unknown delete-pod flag \"{flag}\"; known: {}", Flags::Delete.known())),
        }
        Ok(())
    }
}

/// The flags of `kubectl drain` the simulation models (`+flag` in the notation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct DrainFlags {
    pub ignore_daemonsets: bool,
    pub delete_emptydir_data: bool,
    pub force: bool,
    pub disable_eviction: bool,
    /// `--grace-period` (kubectl's default, -1, means the Pod's own).
    pub grace_period: Option<u32>,
    /// `--timeout` in seconds (0, the default, waits forever).
    pub timeout_secs: Option<u32>,
    /// `--chunk-size`: the Pod list's `limit` (`None`: kubectl's 500; 0: no paging).
    pub chunk_size: Option<u32>,
    /// `--pod-selector`, in its canonical form (empty: every Pod).
    pub pod_selector: SelectorText,
}

/// kubectl's `--chunk-size` default (`cmdutil.DefaultChunkSize`).
pub const DEFAULT_CHUNK_SIZE: u32 = 500;

/// Escapes a flag value for the notation: `%XX` for `%`, `+`, `,`, `:`, `@`, `&`, `#` and spaces,
/// which separate actions, flags and targets or end a URL's value.
fn escape_value(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '%' | '+' | ',' | ':' | '@' | '&' | '#' | ' ' => out.push_str(&format!("%{:02X}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// The reverse of [`escape_value`] (any `%XX`).
fn unescape_value(v: &str) -> Result<String, String> {
    let mut out = Vec::with_capacity(v.len());
    let b = v.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = v.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(h, 16).ok());
            out.push(hex.ok_or_else(|| format!("bad escape in \"{v}\""))?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| format!("bad escape in \"{v}\""))
}

impl DrainFlags {
    /// No flags: kubectl's defaults.
    pub const NONE: DrainFlags = DrainFlags {
        ignore_daemonsets: false,
        delete_emptydir_data: false,
        force: false,
        disable_eviction: false,
        grace_period: None,
        timeout_secs: None,
        chunk_size: None,
        pod_selector: SelectorText::EMPTY,
    };

    /// The Pod list's `limit`.
    pub fn limit(&self) -> u32 {
        self.chunk_size.unwrap_or(DEFAULT_CHUNK_SIZE)
    }

    /// The flags as `+flag` suffixes, in a fixed order.
    fn suffix(&self) -> String {
        let mut s = String::new();
        for (on, name) in [
            (self.ignore_daemonsets, "ignore-daemonsets"),
            (self.delete_emptydir_data, "delete-emptydir-data"),
            (self.force, "force"),
            (self.disable_eviction, "disable-eviction"),
        ] {
            if on {
                s.push('+');
                s.push_str(name);
            }
        }
        if let Some(g) = self.grace_period {
            s.push_str(&format!("+grace-period={g}"));
        }
        if let Some(t) = self.timeout_secs {
            s.push_str(&format!("+timeout={}", format_go_duration(std::time::Duration::from_secs(t.into()))));
        }
        if let Some(n) = self.chunk_size {
            s.push_str(&format!("+chunk-size={n}"));
        }
        if !self.pod_selector.is_empty() {
            s.push_str(&format!("+pod-selector={}", escape_value(self.pod_selector.as_str())));
        }
        s
    }

    /// The flags as kubectl's command line writes them (`--ignore-daemonsets ...`).
    pub fn args(&self) -> Vec<String> {
        self.suffix()
            .split('+')
            .filter(|f| !f.is_empty())
            .map(|f| format!("--{}", unescape_value(f).unwrap_or_else(|_| f.to_string())))
            .collect()
    }

    fn set(&mut self, flag: &str) -> Result<(), String> {
        let (name, value) = match flag.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (flag, None),
        };
        match (name, value) {
            ("ignore-daemonsets", None) => self.ignore_daemonsets = true,
            ("delete-emptydir-data", None) => self.delete_emptydir_data = true,
            ("force", None) => self.force = true,
            ("disable-eviction", None) => self.disable_eviction = true,
            ("grace-period", Some(v)) => {
                self.grace_period =
                    Some(v.parse().map_err(|_| format!("grace-period \"{v}\" is not a number of seconds"))?)
            }
            ("timeout", Some(v)) => {
                let d = parse_go_duration(v).map_err(|e| e.to_string())?;
                self.timeout_secs = Some(d.as_secs() as u32);
            }
            ("chunk-size", Some(v)) => {
                self.chunk_size = Some(v.parse().map_err(|_| format!("chunk-size \"{v}\" is not a number of Pods"))?)
            }
            ("pod-selector", Some(v)) => {
                let text = unescape_value(v)?;
                self.pod_selector = SelectorText::parse(&text)
                    .map_err(|why| format!("pod-selector \"{text}\" is not a label selector: {why}"))?;
            }
            _ => {
                return Err(format!("unknown drain flag \"{flag}\"; known: {}", Flags::Drain.known()));
            }
        }
        Ok(())
    }
}

/// The budget of `create-pdb`: `--min-available` or `--max-unavailable`, a number or a percentage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Budget {
    MinAvailable(IntOrPercent),
    MaxUnavailable(IntOrPercent),
}

impl Default for Budget {
    fn default() -> Budget {
        Budget::ONE
    }
}

impl Budget {
    /// `--min-available=1`, the sandbox button's budget.
    pub const ONE: Budget = Budget::MinAvailable(IntOrPercent::Int(1));

    fn suffix(&self) -> String {
        match self {
            Budget::MinAvailable(v) => format!("+min-available={v}"),
            Budget::MaxUnavailable(v) => format!("+max-unavailable={v}"),
        }
    }

    fn parse(flag: &str) -> Result<Budget, String> {
        let bad = || format!("create-pdb takes {}, not \"{flag}\"", Flags::Budget.known());
        let (name, value) = flag.split_once('=').ok_or_else(bad)?;
        let value = match value.strip_suffix('%') {
            Some(p) => IntOrPercent::Percent(p.parse().ok().filter(|p| (0..=100).contains(p)).ok_or_else(bad)?),
            None => IntOrPercent::Int(value.parse().ok().filter(|n: &i32| *n >= 0).ok_or_else(bad)?),
        };
        match name {
            "min-available" => Ok(Budget::MinAvailable(value)),
            "max-unavailable" => Ok(Budget::MaxUnavailable(value)),
            _ => Err(bad()),
        }
    }
}

impl fmt::Display for ActionKind {
    /// The name, with the flags of `drain` and `create-pdb` as `+flag` suffixes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self {
            ActionKind::Drain(flags) => f.write_str(&flags.suffix()),
            ActionKind::CreatePdb(budget) => f.write_str(&budget.suffix()),
            ActionKind::DeletePod(flags) => f.write_str(&flags.suffix()),
            ActionKind::Taint { overwrite: true } => f.write_str("+overwrite"),
            _ => Ok(()),
        }
    }
}

/// One input: an action, what it is aimed at (if it takes a target), and when.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Action {
    pub at: SimTime,
    pub kind: ActionKind,
    /// The target ([`ActionKind::target`]): a machine (`None` means the chapter's first
    /// machine), a zone, or `ZONE/K`.
    pub machine: Option<String>,
}

impl Action {
    /// `kind` at `at`, aimed at the default machine.
    pub fn new(kind: ActionKind, at: SimTime) -> Action {
        Action { at, kind, machine: None }
    }

    /// `kind` at `at`, aimed at `machine`.
    pub fn on(kind: ActionKind, machine: &str, at: SimTime) -> Action {
        Action { at, kind, machine: Some(machine.to_string()) }
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.kind)?;
        if let Some(m) = &self.machine {
            write!(f, ":{m}")?;
        }
        write!(f, "@{}", format_go_duration(self.at.since_start()))
    }
}

/// Why an action list could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionParseError(pub String);

impl fmt::Display for ActionParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ActionParseError {}

/// The longest machine name accepted (a DNS label).
const MAX_MACHINE_NAME: usize = 63;

/// The largest K in `cut-nodes:ZONE/K` (the largest fleet).
pub const MAX_CUT_NODES: usize = 1000;

/// Splits a `cut-nodes` target `ZONE/K`.
pub fn split_zone_count(target: &str) -> Option<(&str, usize)> {
    let (zone, k) = target.split_once('/')?;
    let k: usize = k.parse().ok()?;
    (is_dns_label(zone) && (1..=MAX_CUT_NODES).contains(&k)).then_some((zone, k))
}

/// Splits a `taint` target `NODE/SPEC` into the machine and the parsed taint argument.
pub fn split_taint_target(target: &str) -> Option<(&str, TaintEdit)> {
    let (node, spec) = target.split_once('/')?;
    Some((node, TaintEdit::parse(spec).ok()?))
}

/// Parses one `ACTION[:TARGET]@TIME` (also accepted: `ACTION@TIME:TARGET`).
pub fn parse_action(text: &str) -> Result<Action, ActionParseError> {
    let err = |why: String| ActionParseError(format!("invalid action \"{text}\": {why}"));
    let text = text.trim();
    let (head, time) = text.split_once('@').ok_or_else(|| err("expected ACTION@TIME, e.g. kill-kubelet@2m".into()))?;
    let (name, mut machine) = match head.split_once(':') {
        Some((n, m)) => (n, Some(m)),
        None => (head, None),
    };
    let time = match time.split_once(':') {
        Some((t, m)) if machine.is_none() => {
            machine = Some(m);
            t
        }
        Some(_) => return Err(err("the machine is given twice".into())),
        None => time,
    };
    // Flags follow `+` (or a space: what a `+` typed into a URL's query decodes to).
    let mut flags = name.split(['+', ' ']);
    let name = flags.next().unwrap_or_default();
    let mut kind = ActionKind::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = ACTIONS.iter().map(|a| a.name).collect();
        err(format!("unknown action \"{name}\"; known actions: {}", known.join(", ")))
    })?;
    match &mut kind {
        ActionKind::Drain(f) => {
            for flag in flags {
                f.set(flag).map_err(err)?;
            }
        }
        ActionKind::DeletePod(f) => {
            for flag in flags {
                f.set(flag).map_err(err)?;
            }
        }
        ActionKind::CreatePdb(budget) => {
            let given: Vec<&str> = flags.collect();
            match given.as_slice() {
                [one] => *budget = Budget::parse(one).map_err(err)?,
                _ => return Err(err("create-pdb takes one of min-available=N or max-unavailable=N".into())),
            }
        }
        ActionKind::Taint { overwrite } => {
            for flag in flags {
                match flag {
                    "overwrite" => *overwrite = true,
                    _ => return Err(err(format!("taint takes only +overwrite, not \"+{flag}\""))),
                }
            }
        }
        _ => {
            if let Some(flag) = flags.next() {
                return Err(err(format!("{name} takes no flags, not \"+{flag}\"")));
            }
        }
    }
    let at = parse_go_duration(time).map_err(|e| err(e.to_string()))?;
    let machine = match (kind.target(), machine) {
        (Target::Machine, None) => None,
        (Target::None, None) => None,
        (Target::None, Some(_)) => return Err(err(format!("{name} does not take a machine"))),
        (Target::Machine, Some(m)) if is_dns_label(m) => Some(m.to_string()),
        (Target::Machine, Some(m)) => {
            return Err(err(format!("\"{m}\" is not a machine name (lowercase letters, digits and '-')")));
        }
        (Target::Zone, None) => return Err(err(format!("{name} needs a zone, e.g. {name}:eu-west-1b@5m"))),
        (Target::Zone, Some(z)) if is_dns_label(z) => Some(z.to_string()),
        (Target::Zone, Some(z)) => {
            return Err(err(format!("\"{z}\" is not a zone name (lowercase letters, digits and '-')")));
        }
        (Target::ZoneCount, None) => {
            return Err(err(format!("{name} needs a zone and a number of nodes, e.g. {name}:eu-west-1b/5@2m")));
        }
        (Target::NodeTaint, None) => {
            return Err(err(format!(
                "{name} needs a node and a taint, e.g. {name}:node-1/node.kubernetes.io/out-of-service=nodeshutdown:NoExecute@5m"
            )));
        }
        (Target::NodeTaint, Some(t)) => {
            let (node, spec) = t.split_once('/').unwrap_or((t, ""));
            if !is_dns_label(node) {
                return Err(err(format!("\"{node}\" is not a machine name (lowercase letters, digits and '-')")));
            }
            TaintEdit::parse(spec).map_err(err)?;
            Some(t.to_string())
        }
        (Target::ZoneCount, Some(t)) if split_zone_count(t).is_some() => Some(t.to_string()),
        (Target::Pod, None) => return Err(err(format!("{name} needs a Pod, e.g. {name}:default/web-1@2m"))),
        (Target::Pod, Some(t)) if split_pod(t).is_some() => Some(t.to_string()),
        (Target::Pod, Some(t)) => {
            return Err(err(format!(
                "\"{t}\" is not a Pod ([NAMESPACE/]NAME, lowercase letters, digits, '-' and '.')"
            )));
        }
        (Target::PodContainer, None) => {
            return Err(err(format!("{name} needs a Pod, e.g. {name}:default/web-1@2m")));
        }
        (Target::PodContainer, Some(t)) if split_pod_container(t).is_some() => Some(t.to_string()),
        (Target::PodContainer, Some(t)) => {
            return Err(err(format!(
                "\"{t}\" is not a Pod and container ([NAMESPACE/]NAME or NAMESPACE/NAME/CONTAINER)"
            )));
        }
        (Target::Csr, None) => {
            return Err(err(format!("{name} needs a CertificateSigningRequest's name, e.g. {name}:csr-8vx2k@2m")));
        }
        (Target::Csr, Some(t)) if is_csr_name(t) => Some(t.to_string()),
        (Target::Csr, Some(t)) => {
            return Err(err(format!(
                "\"{t}\" is not a CertificateSigningRequest's name (letters, digits, '-', '_' and '.')"
            )));
        }
        (Target::ZoneCount, Some(t)) => {
            return Err(err(format!(
                "\"{t}\" is not ZONE/K (a zone name, '/', and a number of nodes from 1 to {MAX_CUT_NODES})"
            )));
        }
    };
    Ok(Action { at: SimTime::from_micros(at.as_micros() as u64), kind, machine })
}

/// Parses a comma-separated action list, sorted by time (stable for equal times).
pub fn parse_actions(text: &str) -> Result<Vec<Action>, ActionParseError> {
    if text.trim().is_empty() {
        return Ok(Vec::new());
    }
    let mut actions = text.split(',').map(parse_action).collect::<Result<Vec<_>, _>>()?;
    sort_by_time(&mut actions);
    Ok(actions)
}

/// Sorts actions by time, keeping the given order for equal times.
pub fn sort_by_time(actions: &mut [Action]) {
    // A plain insertion sort: lists are short, and it keeps the page's code small.
    for i in 1..actions.len() {
        let mut j = i;
        while j > 0 && actions[j - 1].at > actions[j].at {
            actions.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Formats actions as the comma-separated notation.
pub fn format_actions(actions: &[Action]) -> String {
    actions.iter().map(Action::to_string).collect::<Vec<_>>().join(",")
}

/// Splits a `delete-pod` target `[NAMESPACE/]NAME` (the namespace `default` when omitted).
pub fn split_pod(target: &str) -> Option<(&str, &str)> {
    let (ns, name) = target.split_once('/').unwrap_or(("default", target));
    let subdomain = !name.is_empty() && name.len() <= 253 && name.split('.').all(is_dns_label);
    (is_dns_label(ns) && subdomain).then_some((ns, name))
}

/// Splits a `logs` or `exec` target `[NAMESPACE/]NAME` or `NAMESPACE/NAME/CONTAINER` into the
/// namespace, the Pod's name and the container, if one is named.
pub fn split_pod_container(target: &str) -> Option<(&str, &str, Option<&str>)> {
    match target.match_indices('/').nth(1) {
        Some((at, _)) => {
            let (ns, name) = split_pod(&target[..at])?;
            let container = &target[at + 1..];
            is_dns_label(container).then_some((ns, name, Some(container)))
        }
        None => split_pod(target).map(|(ns, name)| (ns, name, None)),
    }
}

/// A CSR's name as the notation takes it (the API accepts any name; the kubelet's are
/// `node-csr-` and base64url).
fn is_csr_name(s: &str) -> bool {
    !s.is_empty() && s.len() <= 253 && s.bytes().all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

fn is_dns_label(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= MAX_MACHINE_NAME
        && s.bytes().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == b'-')
        && !s.starts_with('-')
        && !s.ends_with('-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_documented_examples() {
        let a = parse_actions("kill-kubelet@2m,start-kubelet@9m30s").unwrap();
        assert_eq!(a.len(), 2);
        assert_eq!(a[0], Action::new(ActionKind::KillKubelet, SimTime::from_secs(120)));
        assert_eq!(a[1], Action::new(ActionKind::StartKubelet, SimTime::from_secs(570)));
        assert_eq!(
            parse_action("cut-network:node-2@1500ms").unwrap(),
            Action::on(ActionKind::CutNetwork, "node-2", SimTime::from_millis(1500))
        );
        assert_eq!(
            parse_action("cut-network@90s:node-2").unwrap(),
            Action::on(ActionKind::CutNetwork, "node-2", SimTime::from_secs(90))
        );
    }

    #[test]
    fn parses_the_zone_actions() {
        let text = "cut-nodes:eu-west-1b/5@2m0s,cut-zone:eu-west-1b@7m0s,cut-control-plane@15m0s,\
                    restore-control-plane@18m0s,restore-zone:eu-west-1b@18m0s";
        let a = parse_actions(text).unwrap();
        assert_eq!(a[0], Action::on(ActionKind::CutNodes, "eu-west-1b/5", SimTime::from_secs(120)));
        assert_eq!(a[2], Action::new(ActionKind::CutControlPlane, SimTime::from_secs(900)));
        assert_eq!(format_actions(&a), text);
        assert_eq!(split_zone_count("eu-west-1b/5"), Some(("eu-west-1b", 5)));
    }

    #[test]
    fn round_trips_through_the_notation() {
        let text = "create-pod@25s,kill-kubelet:node-2@2m0s,start-kubelet@9m30s";
        assert_eq!(format_actions(&parse_actions(text).unwrap()), text);
    }

    #[test]
    fn drain_and_pdb_flags_round_trip() {
        let text =
            "create-pdb+max-unavailable=50%@30s,drain+ignore-daemonsets+grace-period=10+timeout=1m0s:node-2@2m0s";
        let a = parse_actions(text).unwrap();
        assert_eq!(a[0].kind, ActionKind::CreatePdb(Budget::MaxUnavailable(IntOrPercent::Percent(50))));
        let ActionKind::Drain(f) = a[1].kind else { panic!("a drain") };
        assert!(f.ignore_daemonsets && !f.force);
        assert_eq!((f.grace_period, f.timeout_secs), (Some(10), Some(60)));
        assert_eq!(f.args(), ["--ignore-daemonsets", "--grace-period=10", "--timeout=1m0s"]);
        assert_eq!(format_actions(&a), text);
        assert!(a[1].kind.same_action(ActionKind::Drain(DrainFlags::default())));
        assert_eq!(
            parse_action("drain ignore-daemonsets:node-2@2m").unwrap().to_string(),
            "drain+ignore-daemonsets:node-2@2m0s"
        );
        let selected = parse_action("drain+pod-selector=tier%20in%20(a%2Cb)+chunk-size=2:node-3@1m").unwrap();
        let ActionKind::Drain(f) = selected.kind else { panic!("a drain") };
        assert_eq!((f.pod_selector.as_str(), f.limit()), ("tier in (a,b)", 2));
        assert_eq!(parse_action(&selected.to_string()).unwrap(), selected);
        assert_eq!(f.args(), ["--chunk-size=2", "--pod-selector=tier in (a,b)"]);
        assert!(parse_action("drain+pod-selector=a%3D(:node-3@1m").is_err());
        let delete = parse_action("delete-pod+force+wait=false:kube-system/node-agent-x@1m").unwrap();
        let ActionKind::DeletePod(f) = delete.kind else { panic!("a delete") };
        assert_eq!((f.effective_grace(), f.no_wait), (Some(0), true));
        assert_eq!(parse_action(&delete.to_string()).unwrap(), delete);
        assert_eq!(split_pod_container("web-1"), Some(("default", "web-1", None)));
        assert_eq!(split_pod_container("prod/web-1"), Some(("prod", "web-1", None)));
        assert_eq!(split_pod_container("prod/web-1/nginx"), Some(("prod", "web-1", Some("nginx"))));
        assert_eq!(split_pod_container("prod/web-1/Nginx"), None);
        assert_eq!(split_pod_container("a/b/c/d"), None);
        assert_eq!(split_pod("web-1"), Some(("default", "web-1")));
        assert!(parse_action("delete-pod@1m").is_err(), "a Pod is needed");
        assert!(parse_action("delete-pod:Web_1@1m").is_err());
    }

    #[test]
    fn taints_round_trip() {
        let text = "taint:node-1/node.kubernetes.io/out-of-service=nodeshutdown:NoExecute@2m0s,\
                    taint+overwrite:node-2/example.com/gpu:NoSchedule-@3m0s";
        let a = parse_actions(text).unwrap();
        assert_eq!(a[0].kind, ActionKind::Taint { overwrite: false });
        assert_eq!(a[1].kind, ActionKind::Taint { overwrite: true });
        let (node, edit) = split_taint_target(a[1].machine.as_deref().unwrap()).unwrap();
        assert_eq!((node, edit.key.as_str(), edit.remove), ("node-2", "example.com/gpu", true));
        assert_eq!(format_actions(&a), text);
        for (bad, why) in [
            ("taint@1m", "needs a node and a taint"),
            ("taint:node-1@1m", "invalid taint spec"),
            ("taint:node-1/k:Sometimes@1m", "invalid taint effect"),
            ("taint+force:node-1/k:NoSchedule@1m", "only +overwrite"),
        ] {
            let e = parse_action(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn sorts_by_time() {
        let a = parse_actions("start-kubelet@5m,kill-kubelet@1m").unwrap();
        assert_eq!(a[0].kind, ActionKind::KillKubelet);
    }

    #[test]
    fn rejects_bad_input_with_a_reason() {
        for (bad, why) in [
            ("explode@1m", "unknown action"),
            ("kill-kubelet", "expected ACTION@TIME"),
            ("kill-kubelet@soon", "invalid duration"),
            ("kill-kubelet@-5s", "negative"),
            ("create-pod:node-1@1m", "does not take a machine"),
            ("kill-kubelet:Node_1@1m", "not a machine name"),
            ("kill-kubelet:a@1m:b", "given twice"),
            ("kill-kubelet@99999h", "longer than a week"),
            ("drain+sideways@1m", "unknown drain flag"),
            ("create-pdb@1m", "takes one of"),
            ("create-pdb+min-available=lots@1m", "a number or a percentage"),
            ("create-pdb+max-unavailable=150%@1m", "a number or a percentage"),
            ("cordon+force@1m", "takes no flags"),
            ("create-pdb+min-available=1:node-1@1m", "does not take a machine"),
            ("cut-zone@1m", "needs a zone"),
            ("cut-zone:EU_1@1m", "not a zone name"),
            ("cut-control-plane:node-1@1m", "does not take a machine"),
            ("cut-nodes@1m", "needs a zone and a number"),
            ("cut-nodes:eu-west-1b@1m", "not ZONE/K"),
            ("cut-nodes:eu-west-1b/0@1m", "not ZONE/K"),
            ("cut-nodes:eu-west-1b/1001@1m", "not ZONE/K"),
            ("cut-nodes:eu-west-1b/x@1m", "not ZONE/K"),
        ] {
            let e = parse_actions(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }
}

/// Why an action makes no sense at a moment: shown next to a disabled button, and recorded with
/// an input that was ignored. `Display` is the English sentence (the CLI and the timeline JSON
/// use it); the page words it in the reader's language from the variant and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// There is no machine with this name.
    NoSuchMachine(String),
    /// The kubelet on this machine is not running.
    KubeletNotRunning(String),
    /// The kubelet on this machine is already running.
    KubeletAlreadyRunning(String),
    /// containerd on this machine is already stopped.
    RuntimeAlreadyStopped(String),
    /// containerd on this machine is already running.
    RuntimeAlreadyRunning(String),
    /// The network of this machine is already cut.
    NetworkAlreadyCut(String),
    /// The network of this machine is not cut.
    NetworkNotCut(String),
    /// The sandbox holds at most this many Pods.
    TooManyPods(usize),
    /// The sandbox holds at most this many machines.
    TooManyMachines(usize),
    /// A second machine with this hostname already exists.
    DuplicateExists(String),
    /// The Node with this name is not registered yet.
    NodeNotRegistered(String),
    /// The kubelet on this machine cannot reach the API server.
    MachineCannotReach(String),
    /// The Node already carries the out-of-service taint.
    OutOfServiceAlreadyTainted(String),
    /// The Node does not carry the out-of-service taint.
    OutOfServiceNotTainted(String),
    /// The StatefulSet already exists.
    StatefulSetExists(String),
    /// The Deployment already exists.
    DeploymentExists(String),
    /// A `taint` action's target is not `NODE/KEY[=VALUE]:EFFECT` (or a removal).
    InvalidTaint(String),
    /// No machine carries this zone label.
    NoSuchZone(String),
    /// Every kubelet of this zone is already cut off.
    ZoneAlreadyCut(String),
    /// No kubelet of this zone is cut off.
    ZoneNotCut(String),
    /// Every kubelet is already cut off from the API server.
    ControlPlaneAlreadyCut,
    /// No kubelet is cut off from the API server.
    ControlPlaneNotCut,
    /// There is no Pod `NAMESPACE/NAME`.
    NoSuchPod(String),
    /// The Pod has no running container.
    PodNotRunning(String),
    /// The Pod's container already leaks memory.
    PodAlreadyLeaking(String),
    /// The Pod's container does not leak memory.
    PodNotLeaking(String),
    /// No Pod runs anywhere, so none can be aimed at.
    NoPodRunning,
}

impl Refusal {
    /// The name or number the sentence is about.
    pub fn subject(&self) -> String {
        match self {
            Refusal::NoSuchMachine(s)
            | Refusal::KubeletNotRunning(s)
            | Refusal::KubeletAlreadyRunning(s)
            | Refusal::RuntimeAlreadyStopped(s)
            | Refusal::RuntimeAlreadyRunning(s)
            | Refusal::NetworkAlreadyCut(s)
            | Refusal::NetworkNotCut(s)
            | Refusal::DuplicateExists(s)
            | Refusal::NodeNotRegistered(s)
            | Refusal::MachineCannotReach(s)
            | Refusal::OutOfServiceAlreadyTainted(s)
            | Refusal::OutOfServiceNotTainted(s)
            | Refusal::StatefulSetExists(s)
            | Refusal::DeploymentExists(s)
            | Refusal::InvalidTaint(s)
            | Refusal::NoSuchZone(s)
            | Refusal::ZoneAlreadyCut(s)
            | Refusal::ZoneNotCut(s)
            | Refusal::NoSuchPod(s)
            | Refusal::PodNotRunning(s)
            | Refusal::PodAlreadyLeaking(s)
            | Refusal::PodNotLeaking(s) => s.clone(),
            Refusal::ControlPlaneAlreadyCut | Refusal::ControlPlaneNotCut | Refusal::NoPodRunning => String::new(),
            Refusal::TooManyPods(n) | Refusal::TooManyMachines(n) => n.to_string(),
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.subject();
        match self {
            Refusal::NoSuchMachine(_) => write!(f, "there is no machine named {s}"),
            Refusal::KubeletNotRunning(_) => write!(f, "the kubelet on {s} is not running"),
            Refusal::KubeletAlreadyRunning(_) => write!(f, "the kubelet on {s} is already running"),
            Refusal::RuntimeAlreadyStopped(_) => write!(f, "containerd on {s} is already stopped"),
            Refusal::RuntimeAlreadyRunning(_) => write!(f, "containerd on {s} is already running"),
            Refusal::NetworkAlreadyCut(_) => write!(f, "the network of {s} is already cut"),
            Refusal::NetworkNotCut(_) => write!(f, "the network of {s} is not cut"),
            Refusal::TooManyPods(_) => write!(f, "this sandbox holds at most {s} Pods"),
            Refusal::TooManyMachines(_) => write!(f, "this sandbox holds at most {s} machines"),
            Refusal::DuplicateExists(_) => write!(f, "a second machine named {s} already exists"),
            Refusal::NodeNotRegistered(_) => write!(f, "the Node {s} is not registered yet"),
            Refusal::MachineCannotReach(_) => write!(f, "{s} cannot reach the API server: its network is cut"),
            Refusal::OutOfServiceAlreadyTainted(_) => {
                write!(f, "the Node {s} already has the node.kubernetes.io/out-of-service taint")
            }
            Refusal::OutOfServiceNotTainted(_) => {
                write!(f, "the Node {s} has no node.kubernetes.io/out-of-service taint")
            }
            Refusal::StatefulSetExists(_) => write!(f, "the StatefulSet {s} already exists"),
            Refusal::DeploymentExists(_) => write!(f, "the Deployment {s} already exists"),
            Refusal::InvalidTaint(_) => write!(f, "\"{s}\" is not a Node and a taint, NODE/KEY[=VALUE]:EFFECT"),
            Refusal::NoSuchZone(_) => write!(f, "there is no zone named {s}"),
            Refusal::ZoneAlreadyCut(_) => write!(f, "every node of zone {s} is already cut off"),
            Refusal::ZoneNotCut(_) => write!(f, "no node of zone {s} is cut off"),
            Refusal::ControlPlaneAlreadyCut => write!(f, "the API server already hears no kubelet"),
            Refusal::ControlPlaneNotCut => write!(f, "no kubelet is cut off from the API server"),
            Refusal::NoSuchPod(_) => write!(f, "there is no Pod {s}"),
            Refusal::PodNotRunning(_) => write!(f, "the Pod {s} has no running container"),
            Refusal::PodAlreadyLeaking(_) => write!(f, "the Pod {s} already leaks memory"),
            Refusal::PodNotLeaking(_) => write!(f, "the Pod {s} does not leak memory"),
            Refusal::NoPodRunning => write!(f, "no Pod is running"),
        }
    }
}
