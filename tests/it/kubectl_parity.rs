//! Parity with the real kubectl: a small HTTP server on 127.0.0.1
//! (`tests/common/fake_apiserver.rs`) serves the simulation's objects at the API paths kubectl asks
//! for (discovery, Nodes, Pods by field selector, Events, Leases, server-side Tables), and the test
//! runs the installed `kubectl` against it and compares its output with nodeline's renderers for
//! the same objects, for every step of every chapter and a set of failure moments.
//!
//! Clocks: each moment is simulated with its epoch chosen so that the moment's wall-clock time is
//! the real time now (whole seconds earlier at most), so the ages kubectl computes from the real
//! clock are the ages at the moment. kubectl counts `describe` ages itself, at an instant between
//! the process's start and exit: nodeline's rendering must equal its rendering at one of the
//! instants in that span where an age changes. `get` ages come from the server's Table (as with a
//! real API server), computed at the instant the server answers, which the server records.
//!
//! kubectl prints times in its local zone; it runs with `TZ=UTC`. If `kubectl` is not installed
//! the test says so and passes, unless `NODELINE_REQUIRE_KUBECTL=1` (CI), where it fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use nodeline::render::json;
use nodeline::render::kubectl_printer::{Cluster, command, describe};
use nodeline::sim::objects::Node;
use nodeline::sim::{Action, Chapter, Config, SimTime, Timeline, WallTime, parse_actions};
use serde_json::Value;

use crate::common::fake_apiserver::{Served, Server, decode_continue, real_now, unescape};
// ---------------------------------------------------------------------------------------------
// Finding kubectl

fn kubectl_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NODELINE_KUBECTL") {
        return Some(PathBuf::from(p)).filter(|p| p.is_file());
    }
    std::env::split_paths(&std::env::var_os("PATH")?).map(|d| d.join("kubectl")).find(|p| p.is_file())
}

fn require_kubectl() -> Option<PathBuf> {
    let found = kubectl_path();
    if found.is_none() {
        if std::env::var("NODELINE_REQUIRE_KUBECTL").is_ok_and(|v| v == "1") {
            panic!("NODELINE_REQUIRE_KUBECTL=1 but no kubectl on PATH (or NODELINE_KUBECTL): the parity test must run");
        }
        // Straight to the process's stderr, past the test harness's capture, so the skip is seen.
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED kubectl_parity: no kubectl on PATH or in NODELINE_KUBECTL (install kubectl 1.32; set \
             NODELINE_REQUIRE_KUBECTL=1 to make this a failure)"
        );
    }
    found
}

// ---------------------------------------------------------------------------------------------
// Time

/// Every timestamp in the objects (RFC 3339 strings anywhere in their JSON).
fn timestamps(cluster: &Cluster) -> Vec<WallTime> {
    fn walk(v: &Value, out: &mut Vec<WallTime>) {
        match v {
            Value::String(s) => {
                if let Some(t) = WallTime::parse_rfc3339(s) {
                    out.push(t);
                }
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            Value::Object(m) => m.values().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    for o in cluster.objects() {
        walk(&o.to_json(), &mut out);
    }
    out
}

/// The instants in `(from, to]` where an age counted from one of `stamps` ticks over, and `from`.
fn tick_instants(stamps: &[WallTime], from: WallTime, to: WallTime) -> Vec<WallTime> {
    let mut out = vec![from];
    for s in stamps {
        let rem = (from.0 - s.0).rem_euclid(1_000_000);
        let mut b = from.0 + (1_000_000 - rem);
        while b <= to.0 {
            out.push(WallTime(b));
            b += 1_000_000;
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

// ---------------------------------------------------------------------------------------------
// Running kubectl

struct Kubectl {
    path: PathBuf,
    dir: PathBuf,
    port: u16,
}

struct Ran {
    stdout: String,
    stderr: String,
    code: i32,
    started: WallTime,
    ended: WallTime,
}

impl Kubectl {
    fn kubeconfig(&self, id: usize) -> PathBuf {
        let path = self.dir.join(format!("kubeconfig-{id}"));
        if !path.exists() {
            let text = format!(
                "apiVersion: v1\nkind: Config\nclusters:\n- name: sim\n  cluster:\n    server: http://127.0.0.1:{}/m/{id}\n\
                 contexts:\n- name: sim\n  context:\n    cluster: sim\n    user: sim\ncurrent-context: sim\nusers:\n\
                 - name: sim\n  user: {{}}\n",
                self.port
            );
            std::fs::write(&path, text).unwrap();
        }
        path
    }

    fn run(&self, id: usize, args: &[String]) -> Ran {
        let started = real_now();
        // The global flags go last: kubectl refuses flags before an unknown command's name.
        // (Before a `--`, whose words are `exec`'s command.)
        let dash = args.iter().position(|a| a == "--").unwrap_or(args.len());
        let child = Command::new(&self.path)
            .args(&args[..dash])
            .arg(format!("--kubeconfig={}", self.kubeconfig(id).display()))
            .arg(format!("--cache-dir={}", self.dir.join("cache").display()))
            .arg("--request-timeout=10s")
            .args(&args[dash..])
            .env("TZ", "UTC")
            .env("HOME", &self.dir)
            .env_remove("KUBECONFIG")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kubectl runs");
        let out = wait_bounded(child, args);
        let ended = real_now();
        Ran {
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
            code: out.status.code().unwrap_or(-1),
            started,
            ended,
        }
    }
}

/// How long one kubectl command may take: `--request-timeout` bounds each request, but not a
/// watch the test server does not serve, which would otherwise hang the test.
const KUBECTL_TIMEOUT: Duration = Duration::from_secs(60);

/// Waits for `child` (reading its output as it comes, so a long output cannot fill the pipe),
/// killing it and failing the test with the command line after [`KUBECTL_TIMEOUT`].
fn wait_bounded(child: std::process::Child, args: &[String]) -> std::process::Output {
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(KUBECTL_TIMEOUT) {
        Ok(out) => out.expect("kubectl's output"),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            let out = rx.recv().expect("kubectl ends once killed").expect("kubectl's output");
            panic!(
                "kubectl {} did not finish within {KUBECTL_TIMEOUT:?} (a request the test server does not answer?)\n\
                 stdout: {}\nstderr: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Moments

/// The fleet chapter's size here: every step happens with four nodes a zone, and kubectl's
/// output for a few nodes is as telling as for 150 (and a debug build runs it in a second).
const PARITY_FLEET: usize = 12;

struct Moment {
    label: String,
    chapter: Chapter,
    actions: Vec<Action>,
    t: SimTime,
    /// The chapter's cluster with its first machine bootstrapping (its TLS bootstrap).
    bootstrap: bool,
    /// Its kubelet with `serverTLSBootstrap` as well.
    serving: bool,
}

fn moment(label: &str, chapter: Chapter, actions: &str, t: SimTime) -> Moment {
    let actions = if actions.is_empty() { Vec::new() } else { parse_actions(actions).expect("actions parse") };
    Moment { label: label.into(), chapter, actions, t, bootstrap: false, serving: false }
}

/// A moment of chapter 1's cluster whose node-1 starts with only a bootstrap token.
fn bootstrap_moment(label: &str, actions: &str, t: SimTime) -> Moment {
    Moment { bootstrap: true, ..moment(label, Chapter::Registration, actions, t) }
}

fn moments() -> Vec<Moment> {
    let mut out = Vec::new();
    for chapter in Chapter::ALL {
        let mut tl = Timeline::new(chapter, Config { nodes: PARITY_FLEET, ..Config::default() });
        tl.run_until(SimTime::ZERO + chapter.scenario().duration);
        for (i, step) in tl.steps().into_iter().enumerate() {
            let t = step.unwrap_or_else(|| panic!("{chapter} step {} happens", i + 1));
            out.push(moment(&format!("{chapter} step {}", i + 1), chapter, "", t.moment));
        }
        out.push(moment(&format!("{chapter} end"), chapter, "", SimTime::ZERO + chapter.scenario().duration));
    }
    let s = SimTime::from_secs;
    let killed = s(120);
    for (label, after) in [("30s", 30), ("60s", 60), ("6m", 360)] {
        out.push(moment(
            &format!("kubelet dead {label}"),
            Chapter::NodeFailure,
            "",
            killed + Duration::from_secs(after),
        ));
    }
    out.push(moment("runtime down", Chapter::Registration, "stop-runtime@2m", s(150)));
    out.push(moment("runtime back", Chapter::Registration, "stop-runtime@2m,start-runtime@3m", s(200)));
    out.push(moment("network cut", Chapter::NodeFailure, "cut-network:node-1@2m", s(230)));
    out.push(moment("network cut 6m", Chapter::NodeFailure, "cut-network:node-1@2m", s(520)));
    out.push(moment("after restart", Chapter::KubeletRestart, "", s(300)));
    // A Pod with an emptyDir (and a required node affinity), for `describe pod` and `-o yaml`.
    out.push(moment("node-local cache", Chapter::Maintenance, "create-cache:node-1@30s", s(60)));
    // Node-pressure eviction: a web Pod on node-3 leaks from 20 s; the kubelet evicts it at
    // 250.4 s (`Failed`, `Evicted`, its message), node-3 reports MemoryPressure at 255 s and the
    // controller taints it; five minutes after, the condition is False again and the taint gone.
    let leak = "leak-memory:web-85df99fd58-6hj6p@20s";
    out.push(moment("memory pressure", Chapter::Maintenance, leak, s(256)));
    out.push(moment("memory pressure over", Chapter::Maintenance, leak, s(580)));
    // A Pod of PriorityClass high-priority: the class listed, the Pod described with its class.
    out.push(moment("high-priority pod", Chapter::Maintenance, "create-priority-pod:node-1@30s", s(60)));
    // The returning kubelet has written the Terminating Pod's terminal status (541.7 s) and not
    // yet deleted it: `get pods` says Completed.
    // The TLS bootstrap: the CSR pending, approved, issued, and the Node registered; a CSR the
    // reader denied before the approver's pass.
    let us = |n: u64| SimTime::ZERO + Duration::from_micros(n);
    for (label, t) in
        [("csr pending", us(500)), ("csr approved", us(1500)), ("csr issued", us(2500)), ("bootstrapped", s(60))]
    {
        out.push(bootstrap_moment(label, "", t));
    }
    out.push(bootstrap_moment("csr denied", &format!("deny-csr:{BOOTSTRAP_CSR}@500us"), s(5)));
    // With serverTLSBootstrap: the serving CSR pending, then approved by hand and issued.
    let pending = Moment { serving: true, ..bootstrap_moment("serving csr pending", "", s(5)) };
    let mut tl = timeline_of(&pending, Config::default());
    tl.run_until(s(5));
    let serving_csr = tl
        .at(s(5))
        .all::<nodeline::sim::objects::CertificateSigningRequest>()
        .into_iter()
        .find(|c| c.spec.signer_name == "kubernetes.io/kubelet-serving")
        .expect("a serving CSR")
        .metadata
        .name
        .to_string();
    out.push(pending);
    let approve = format!("approve-csr:{serving_csr}@30s");
    out.push(Moment { serving: true, ..bootstrap_moment("serving csr issued", &approve, s(40)) });
    out.push(moment(
        "terminal status before delete",
        Chapter::NodeFailure,
        "kill-kubelet:node-1@120s,start-kubelet:node-1@9m",
        s(541) + Duration::from_millis(750),
    ));
    out
}

/// The cluster at `m`, with an epoch that puts the moment at (just before) the real time now.
fn cluster_at(m: &Moment) -> Cluster {
    let now = real_now();
    let epoch_secs = (now.0 - m.t.as_micros() as i64).div_euclid(1_000_000);
    let config = Config { epoch: WallTime(epoch_secs * 1_000_000), nodes: PARITY_FLEET, ..Config::default() };
    let mut tl = timeline_of(m, config);
    tl.run_until(m.t + Duration::from_micros(1));
    let refused: Vec<String> =
        tl.log().inputs.iter().filter_map(|i| i.rejected.as_ref().map(|r| r.to_string())).collect();
    assert!(refused.is_empty(), "[{}] the moment's actions apply: {refused:?}", m.label);
    Cluster::from_snapshot(&tl.at(m.t), real_now())
}

/// The moment's timeline, not yet run.
fn timeline_of(m: &Moment, config: Config) -> Timeline {
    if m.bootstrap {
        let mut scenario = m.chapter.scenario();
        scenario.chapter = None;
        scenario.machines[0].bootstrap = true;
        scenario.machines[0].server_tls_bootstrap = m.serving;
        Timeline::from_scenario(scenario, config, &m.actions)
    } else {
        Timeline::with_actions(m.chapter, config, &m.actions)
    }
}

fn with_now(c: &Cluster, now: WallTime) -> Cluster {
    let mut c = c.clone();
    c.now = now;
    c
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

/// `kubectl describe` output cut before each Node's `Name:` line.
fn per_node(text: &str) -> Vec<String> {
    let mut chunks = vec![String::new()];
    for line in text.split_inclusive('\n') {
        if line.starts_with("Name:") && !chunks.last().is_some_and(String::is_empty) {
            chunks.push(String::new());
        }
        if let Some(last) = chunks.last_mut() {
            last.push_str(line);
        }
    }
    chunks
}

/// The first differing line of two texts.
fn first_difference(want: &str, got: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (want.lines().collect(), got.lines().collect());
    let i = (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i)).unwrap_or(0);
    format!(
        "line {}:\n  nodeline: {:?}\n  kubectl:  {:?}",
        i + 1,
        a.get(i).unwrap_or(&"<end>"),
        b.get(i).unwrap_or(&"<end>")
    )
}

/// What kind of comparison a command needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Check {
    /// kubectl counts ages itself, somewhere between start and exit.
    ClientAges,
    /// Ages come from the server's Table (or there are none).
    ServerAges,
    /// `-o json`: the same JSON value.
    Json,
}

fn check_one(k: &Kubectl, id: usize, served: &Served, args: &str, check: Check, failures: &mut Vec<String>) -> usize {
    let table_now = real_now();
    *served.table_now.lock().unwrap() = Some(table_now);
    let argv = words(args);
    let ran = k.run(id, &argv);
    let cluster = &served.cluster;
    let ours_at = |now: WallTime| command::run(&argv, &with_now(cluster, now));
    let ok = match check {
        Check::ClientAges => {
            // kubectl describes one Node after another, each at its own instant: every Node's
            // text must match nodeline's at one instant, the instants in order.
            let stamps = timestamps(cluster);
            let candidates: Vec<Vec<String>> = tick_instants(&stamps, ran.started, ran.ended)
                .into_iter()
                .map(|now| {
                    let o = ours_at(now);
                    let mut chunks = per_node(&o.stdout);
                    chunks.push(format!("{}\u{0}{}", o.stderr, o.code));
                    chunks
                })
                .collect();
            let mut theirs = per_node(&ran.stdout);
            theirs.push(format!("{}\u{0}{}", ran.stderr, ran.code));
            let mut from = 0;
            theirs.iter().enumerate().all(|(i, chunk)| {
                match (from..candidates.len())
                    .find(|&c| candidates[c].len() == theirs.len() && &candidates[c][i] == chunk)
                {
                    Some(c) => {
                        from = c;
                        true
                    }
                    None => false,
                }
            })
        }
        Check::ServerAges => {
            let o = ours_at(table_now);
            o.stdout == ran.stdout && o.stderr == ran.stderr && o.code == ran.code
        }
        Check::Json => {
            let o = ours_at(ran.started);
            let parsed: Result<Value, _> = serde_json::from_str(&ran.stdout);
            match (parsed, serde_json::from_str::<Value>(&o.stdout)) {
                (Ok(a), Ok(b)) => a == b && o.code == ran.code && json::to_string_pretty(&a) == ran.stdout,
                _ => false,
            }
        }
    };
    if !ok {
        let ours = ours_at(ran.started);
        if let Some(dump) = std::env::var_os("NODELINE_PARITY_DUMP") {
            let name = args.replace(['/', ' '], "_");
            let _ = std::fs::create_dir_all(&dump);
            let _ = std::fs::write(Path::new(&dump).join(format!("{id}-{name}.kubectl")), &ran.stdout);
            let _ = std::fs::write(Path::new(&dump).join(format!("{id}-{name}.nodeline")), &ours.stdout);
        }
        failures.push(format!(
            "kubectl {args}: exit {} (nodeline {})\n{}\nstderr kubectl: {:?}\nstderr nodeline: {:?}",
            ran.code,
            ours.code,
            first_difference(&ours.stdout, &ran.stdout),
            ran.stderr,
            ours.stderr,
        ));
    }
    1
}

fn temp_dir() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "nodeline-kubectl-parity-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn cleanup(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
}

/// The commands run at every moment: `describe node`, the tables, and every object as YAML and
/// JSON (one List, as `kubectl get nodes,leases,pods,events -A` prints it), and the CSINodes.
const PER_MOMENT: &[(&str, Check)] = &[
    ("describe node", Check::ClientAges),
    ("describe pod", Check::ClientAges),
    ("get nodes -o wide", Check::ServerAges),
    ("get pods -o wide", Check::ServerAges),
    ("get events", Check::ServerAges),
    ("get nodes,leases,pods,events -A -o yaml", Check::ServerAges),
    ("get nodes,leases,pods,events -A -o json", Check::Json),
    ("get csinodes", Check::ServerAges),
    ("get csinodes -o wide", Check::ServerAges),
    ("get csinode node-1 -o yaml", Check::ServerAges),
    ("describe csinode", Check::ClientAges),
];

/// Commands run once, at a moment with two Nodes, Pods and Events: names, errors, options.
const ONCE: &[(&str, Check)] = &[
    ("get nodes", Check::ServerAges),
    ("get lease -n kube-node-lease", Check::ServerAges),
    ("get lease -n kube-node-lease -o yaml", Check::ServerAges),
    ("get pods -o yaml", Check::ServerAges),
    ("describe node node-1", Check::ClientAges),
    ("describe node node", Check::ClientAges),
    ("describe node nope", Check::ClientAges),
    ("describe nodes/node-2 --show-events=false", Check::ClientAges),
    ("describe pod nope", Check::ClientAges),
    ("describe pod web --show-events=false", Check::ClientAges),
    ("describe pods -A", Check::ClientAges),
    ("get node node-1 -o yaml", Check::ServerAges),
    ("get node node-2 -o json", Check::Json),
    ("get node node-1 nope", Check::ServerAges),
    ("get node/node-2", Check::ServerAges),
    ("get nodes,leases -A", Check::ServerAges),
    ("get no,po --no-headers", Check::ServerAges),
    ("get pods -A -o wide", Check::ServerAges),
    ("get events -A -o wide", Check::ServerAges),
    ("get leases.coordination.k8s.io -n kube-node-lease -o name", Check::ServerAges),
    ("get nodes -o name", Check::ServerAges),
    ("get lease", Check::ServerAges),
    ("get pods -n kube-system", Check::ServerAges),
    ("get nodes --show-kind", Check::ServerAges),
    ("get foo", Check::ServerAges),
    ("get", Check::ServerAges),
    ("describe", Check::ServerAges),
    ("get nodes -o yml", Check::ServerAges),
    ("get nodes --bogus", Check::ServerAges),
    ("get nodes -x", Check::ServerAges),
    ("get csinodes.storage.k8s.io -o name", Check::ServerAges),
    ("get csinode node-2 -o json", Check::Json),
    ("get csinodes -A --show-kind", Check::ServerAges),
    ("get nodes,csinodes", Check::ServerAges),
    ("get csinode nope", Check::ServerAges),
    ("describe csinode node-2 --show-events=false", Check::ClientAges),
    ("describe csinode nope", Check::ClientAges),
    ("foo", Check::ServerAges),
    ("gett nodes", Check::ServerAges),
    ("descrbe node", Check::ServerAges),
];

/// Commands run at every moment of chapter 5: the budget and the DaemonSet.
const MAINTENANCE: &[(&str, Check)] = &[
    ("get pdb", Check::ServerAges),
    ("get pdb -o yaml", Check::ServerAges),
    ("get pdb -o json", Check::Json),
    ("describe pdb", Check::ClientAges),
    ("describe pdb web --show-events=false", Check::ClientAges),
    ("get ds -n kube-system -o wide", Check::ServerAges),
    ("get daemonsets.apps -A -o yaml", Check::ServerAges),
    ("get pods -A -o wide", Check::ServerAges),
    ("get pc", Check::ServerAges),
    ("get priorityclasses.scheduling.k8s.io -o yaml", Check::ServerAges),
    ("get priorityclass -o json", Check::Json),
];

/// Commands run at every moment of chapter 6: the StatefulSet, its claim and volume, and the
/// volume's attachment, listed and described (by name, by name prefix, every one, by short,
/// plural and qualified names).
const GOES_AWAY: &[(&str, Check)] = &[
    ("get sts", Check::ServerAges),
    ("get statefulsets -o wide", Check::ServerAges),
    ("get sts db -o yaml", Check::ServerAges),
    ("get statefulsets.apps -A -o json", Check::Json),
    ("get controllerrevisions", Check::ServerAges),
    ("get controllerrevision -o wide", Check::ServerAges),
    ("get controllerrevisions.apps -o yaml", Check::ServerAges),
    ("get controllerrevisions -A -o json", Check::Json),
    ("get pvc", Check::ServerAges),
    ("get pvc -o wide", Check::ServerAges),
    ("get persistentvolumeclaims -A -o yaml", Check::ServerAges),
    ("get pv", Check::ServerAges),
    ("get pv -o wide", Check::ServerAges),
    ("get pv -o json", Check::Json),
    ("get volumeattachments", Check::ServerAges),
    ("get volumeattachments.storage.k8s.io -o wide", Check::ServerAges),
    ("get volumeattachments -o yaml", Check::ServerAges),
    ("get sts,pvc,pv", Check::ServerAges),
    ("get pvc nope", Check::ServerAges),
    ("describe sts", Check::ClientAges),
    ("describe statefulset db", Check::ClientAges),
    ("describe statefulsets.apps/db --show-events=false", Check::ClientAges),
    ("describe sts -A", Check::ClientAges),
    ("describe pvc", Check::ClientAges),
    ("describe persistentvolumeclaim data-db-0", Check::ClientAges),
    ("describe pvc data --show-events=false", Check::ClientAges),
    ("describe pvc nope", Check::ClientAges),
    ("describe pv", Check::ClientAges),
    ("describe persistentvolumes pvc", Check::ClientAges),
    ("describe pv nope", Check::ClientAges),
    ("describe volumeattachments", Check::ClientAges),
    ("describe volumeattachment.storage.k8s.io csi", Check::ClientAges),
    ("describe volumeattachments --show-events=false", Check::ClientAges),
    ("describe volumeattachment nope", Check::ClientAges),
    ("describe sts,pvc,pv,volumeattachments", Check::ClientAges),
    ("describe controllerrevisions", Check::ClientAges),
    ("describe controllerrevision db", Check::ClientAges),
    ("describe controllerrevisions.apps --show-events=false", Check::ClientAges),
    ("describe controllerrevision nope", Check::ClientAges),
];

/// node-1's CSR's name in chapter 1's cluster (its key is drawn from the hostname).
const BOOTSTRAP_CSR: &str = "node-csr-lYzdjsM0t4oaGEjgiigRY8gkoaguPuQcJ4FM0nXSme8";

/// Commands run at every moment of a TLS bootstrap: the CSR and the bootstrap token's Secret.
const BOOTSTRAP: &[(&str, Check)] = &[
    ("get csr", Check::ServerAges),
    ("get csr -o wide", Check::ServerAges),
    ("get certificatesigningrequests -o yaml", Check::ServerAges),
    ("get csr -o json", Check::Json),
    ("get certificatesigningrequests.certificates.k8s.io -o name", Check::ServerAges),
    ("get csr node-csr-lYzdjsM0t4oaGEjgiigRY8gkoaguPuQcJ4FM0nXSme8", Check::ServerAges),
    ("get csr nope", Check::ServerAges),
    ("describe csr", Check::ClientAges),
    ("describe certificatesigningrequest node-csr", Check::ClientAges),
    ("describe csr --show-events=false", Check::ClientAges),
    ("describe csr nope", Check::ClientAges),
    ("get secrets -n kube-system", Check::ServerAges),
    ("get secret -n kube-system -o yaml", Check::ServerAges),
    ("get secrets -A --show-kind", Check::ServerAges),
];

#[test]
fn kubectl_prints_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let started = Instant::now();
    let dir = temp_dir();
    let server = Server::start();
    let k = Arc::new(Kubectl { path, dir: dir.clone(), port: server.port });
    let moments = moments();
    let jobs: Vec<(usize, Moment)> = moments.into_iter().enumerate().collect();
    let queue = Arc::new(Mutex::new(jobs));
    let failures = Arc::new(Mutex::new(Vec::<String>::new()));
    let runs = Arc::new(AtomicUsize::new(0));
    let workers: Vec<_> = (0..3)
        .map(|_| {
            let (queue, failures, runs, k, state) =
                (queue.clone(), failures.clone(), runs.clone(), k.clone(), server.state.clone());
            std::thread::spawn(move || {
                loop {
                    let Some((id, m)) = queue.lock().unwrap().pop() else { break };
                    let served = Arc::new(Served::new(cluster_at(&m)));
                    state.moments.lock().unwrap().insert(id, served.clone());
                    let mut local = Vec::new();
                    let mut n = 0;
                    for (args, check) in PER_MOMENT {
                        n += check_one(&k, id, &served, args, *check, &mut local);
                    }
                    if m.chapter == Chapter::Maintenance {
                        for (args, check) in MAINTENANCE {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    if m.bootstrap {
                        for (args, check) in BOOTSTRAP {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    if m.chapter == Chapter::NodeGoesAway {
                        for (args, check) in GOES_AWAY {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    if m.label == "node-failure end" {
                        for (args, check) in ONCE {
                            n += check_one(&k, id, &served, args, *check, &mut local);
                        }
                    }
                    runs.fetch_add(n, Ordering::Relaxed);
                    failures.lock().unwrap().extend(local.into_iter().map(|f| format!("[{}] {f}", m.label)));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().expect("a worker panicked");
    }
    let failures = failures.lock().unwrap();
    let unknown = server.state.unknown.lock().unwrap();
    let agents = server.state.user_agents.lock().unwrap();
    // The gcloud SDK's kubectl is a dispatcher that asks /version first with its own agent.
    let agent = agents.iter().find(|a| a.starts_with("kubectl/")).cloned().unwrap_or_default();
    cleanup(&dir);
    let _ = writeln!(
        std::io::stderr(),
        "kubectl_parity: {} kubectl runs against {agent} in {:.1}s",
        runs.load(Ordering::Relaxed),
        started.elapsed().as_secs_f64()
    );
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences from kubectl:\n\n{}", failures.len(), failures.join("\n\n"));
    assert!(agent.starts_with("kubectl/v1.32"), "the parity test ran kubectl {agent}; it is written against 1.32");
}

#[test]
fn describe_output_is_deterministic_and_complete() {
    // Independent of kubectl: the pieces the parity test relies on.
    let m = moment("x", Chapter::NodeFailure, "", SimTime::from_secs(200));
    let c = cluster_at(&m);
    let node = c.all::<Node>().next().expect("a Node");
    let text = describe::describe_node(node, &c);
    for section in [
        "Name:",
        "Lease:",
        "Conditions:",
        "Addresses:",
        "Capacity:",
        "Allocatable:",
        "System Info:",
        "Non-terminated Pods:",
        "Allocated resources:",
        "Events:",
    ] {
        assert!(text.contains(section), "{section} missing:\n{text}");
    }
    assert_eq!(text, describe::describe_node(node, &c));
    let stamps = timestamps(&c);
    assert!(!stamps.is_empty());
    let ticks = tick_instants(&stamps, c.now, c.now + Duration::from_millis(1500));
    assert!(ticks.len() >= 2 && ticks[0] == c.now && ticks.windows(2).all(|w| w[0] < w[1]));
}

/// Runs the real kubectl for a changing command (`drain`, `cordon`, `taint`, `delete node`,
/// `delete pod`) at `t` of `chapter` (with `actions`), against the test server answering each
/// request as the simulation answered nodeline's kubectl (the cordon PATCH, the Pod list, the
/// DaemonSet GET, every eviction's 201 or 429, the polls, the DELETE, the wait's GET, list and
/// watch), and compares: stdout and stderr (goroutines print in any order, so each stream is
/// compared as a sorted set of lines, with its first and last line in place), the exit status,
/// and the requests with their queries, content types and JSON bodies (a watch's random
/// `timeoutSeconds` apart). A command nodeline answers without simulating (a bad command line, a
/// missing Node) is compared by its output alone. The difference, if any.
fn check_change(
    k: &Kubectl,
    server: &Server,
    id: usize,
    chapter: Chapter,
    actions: &str,
    t: SimTime,
    line: &str,
) -> Option<String> {
    check_change_at(k, server, id, moment(line, chapter, actions, t), line)
}

/// [`check_change`] at the moment `m` (a chapter's, or a TLS bootstrap's).
fn check_change_at(k: &Kubectl, server: &Server, id: usize, m: Moment, line: &str) -> Option<String> {
    use nodeline::render::kubectl_printer::change;
    use nodeline::render::kubectl_printer::entry::{CommandLine, Ran};
    use nodeline::sim::Response;
    let argv = words(line);
    let cluster = cluster_at(&m);
    let mut tl = timeline_of(&m, Config::default());
    tl.run_until(m.t);
    // The simulation: the command at the moment, run until kubectl exits.
    let ran = CommandLine::parse(&argv, &tl.at(m.t)).run(m.t, |c| {
        tl.fork(c.action(m.t)).expect("accepted");
        Ok(())
    });
    assert!(!matches!(ran, Ran::Read(_)), "{line}: a change");
    let simulated = matches!(ran, Ran::Acted { .. });
    let end = m.t + Duration::from_secs(120);
    tl.run_until(end);
    if let Ran::Acted { at, kind } = ran {
        assert!(change::transcript(tl.log(), at, kind).1, "{line}: the simulated command ends");
    }
    let ours = ran.output(tl.log(), &tl.at(end));
    // A read (`logs`, `exec`) keeps the chapter's script, whose own kubectl requests come later.
    let reads = matches!(ran, Ran::Acted { kind, .. } if kind.reads());
    let recorded: Vec<_> = if simulated {
        (tl.log().requests.iter())
            .filter(|r| r.t >= m.t && (!reads || r.t == m.t) && r.actor == nodeline::sim::Actor::Kubectl)
            .collect()
    } else {
        Vec::new()
    };
    let replay = recorded
        .iter()
        .map(|r| {
            let body = match &r.response {
                Some(Response::Object(o)) => o.to_json(),
                Some(Response::Status(s)) => serde_json::to_value(s).expect("a Status"),
                Some(renewal @ Response::Renewal(_)) => renewal.object().expect("a Lease").to_json(),
                None => Value::Null,
            };
            (format!("{} {}", r.method.as_str(), r.path), r.outcome.code().unwrap_or(0), body)
        })
        .collect();
    // The store's resourceVersion at the list: in a continue token, or where a watch starts.
    let list_rv = recorded
        .iter()
        .find_map(|r| {
            r.query.split('&').find_map(|kv| match kv.split_once('=') {
                Some(("continue", t)) => decode_continue(&unescape(t)).map(|(_, rv)| rv),
                Some(("resourceVersion", rv)) => rv.parse().ok().filter(|rv| *rv > 0),
                _ => None,
            })
        })
        .unwrap_or(0);
    let served = Arc::new(Served { replay: Some(Mutex::new(replay)), list_rv, ..Served::new(cluster) });
    server.state.moments.lock().unwrap().insert(id, served.clone());
    let ran = k.run(id, &argv);
    let sorted = |s: &str| {
        let mut v: Vec<&str> = s.lines().collect();
        v.sort_unstable();
        v.join("\n")
    };
    let ends = |s: &str| (s.lines().next().map(str::to_owned), s.lines().last().map(str::to_owned));
    let same_out = sorted(&ours.stdout) == sorted(&ran.stdout) && ends(&ours.stdout) == ends(&ran.stdout);
    let same_err = sorted(&ours.stderr) == sorted(&ran.stderr) && ends(&ours.stderr) == ends(&ran.stderr);
    // (nodeline does not keep an `exec`'s command: its `command=` parameters are not compared.)
    let untimed = |q: &str| {
        q.split('&')
            .filter(|kv| !kv.starts_with("timeoutSeconds=") && !kv.starts_with("command="))
            .collect::<Vec<_>>()
            .join("&")
    };
    let mut ours_asked: Vec<String> = recorded
        .iter()
        .map(|r| {
            let body = match &r.body {
                Some(nodeline::sim::Body::Json(v)) => {
                    format!(" [{}] {}", r.content_type.map_or("", |c| c.as_str()), v.as_str())
                }
                _ => String::new(),
            };
            format!("{} {}?{}{body}", r.method.as_str(), r.path, untimed(&r.query))
        })
        .collect();
    let mut theirs_asked: Vec<String> = served
        .asked
        .lock()
        .unwrap()
        .iter()
        .map(|a| match a.split_once('?') {
            Some((head, rest)) => {
                let (q, body) = rest.split_once(' ').map_or((rest, ""), |(q, b)| (q, b));
                let body = if body.is_empty() { String::new() } else { format!(" {body}") };
                format!("{head}?{}{body}", untimed(q))
            }
            None => a.clone(),
        })
        .collect();
    ours_asked.retain(|a| a != "GET /api/v1?");
    theirs_asked.retain(|a| a != "GET /api/v1?");
    ours_asked.sort();
    theirs_asked.sort();
    let same_requests = !simulated || ours_asked == theirs_asked;
    if same_out && same_err && ours.code == ran.code && same_requests {
        return None;
    }
    Some(format!(
        "kubectl {line}: exit {} (nodeline {})\nstdout kubectl:\n{}\nstdout nodeline:\n{}\nstderr kubectl:\n{}\nstderr nodeline:\n{}\nrequests kubectl: {theirs_asked:#?}\nrequests nodeline: {ours_asked:#?}",
        ran.code, ours.code, ran.stdout, ours.stdout, ran.stderr, ours.stderr
    ))
}

/// The real `kubectl drain` (and `cordon`, `delete pod`) in chapter 5 against the test server
/// answering as the simulation answered nodeline's kubectl ([`check_change`]). `{web}` and
/// `{agent}` in a line stand for a web Pod on node-2 and the node agent's Pod there. The drains
/// take the real 5 s of kubectl's retry.
#[test]
fn real_kubectl_drain_prints_what_nodeline_prints() {
    use nodeline::render::kubectl_printer::entry::CommandLine;
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let mut failures = Vec::new();
    const CACHE: &str = "create-cache:node-1@30s";
    let t = SimTime::from_secs(100);
    for (id, actions, line) in [
        (900, "", "drain node-1 --ignore-daemonsets"),
        (901, "", "drain node-1"),
        (902, "", "cordon node-2"),
        (903, "", "uncordon node-1"),
        (904, "", "drain node-1 --ignore-daemonsets --chunk-size=2"),
        (905, "", "drain node-1 --ignore-daemonsets --pod-selector=app=web --chunk-size=1"),
        (906, "", "drain node-1 --pod-selector=app!=web"),
        (907, CACHE, "drain node-1 --ignore-daemonsets"),
        (908, CACHE, "drain node-1 --ignore-daemonsets --delete-emptydir-data"),
        (910, "", "delete pod {web}"),
        (911, "", "delete pod {web} --wait=false"),
        (912, "", "delete pods {web} --force"),
        (913, "", "delete pod {web} --now"),
        (914, "", "delete pod web-nosuch"),
        (915, "", "delete pod web-nosuch --force"),
        (916, "", "-n kube-system delete pod/{agent} --grace-period=0 --force --wait=false"),
    ] {
        let m = moment(line, Chapter::Maintenance, actions, t);
        let mut before = Timeline::with_actions(Chapter::Maintenance, Config::default(), &m.actions);
        before.run_until(m.t);
        let pods = before.at(m.t).pods();
        let pod_on_node_2 = |prefix: &str| {
            pods.iter()
                .find(|p| p.spec.node_name == "node-2" && p.metadata.name.starts_with(prefix))
                .map(|p| p.metadata.name.clone())
                .expect("a Pod on node-2")
        };
        let line = line.replace("{web}", &pod_on_node_2("web-")).replace("{agent}", &pod_on_node_2("node-agent-"));
        failures.extend(check_change(&k, &server, id, Chapter::Maintenance, actions, t, &line));
    }
    // Command lines kubectl refuses, before it changes anything: the same error, the same exit.
    let m = moment("refusals", Chapter::Maintenance, "", SimTime::from_secs(100));
    let mut refused_at = Timeline::with_actions(Chapter::Maintenance, Config::default(), &m.actions);
    refused_at.run_until(m.t);
    server.state.moments.lock().unwrap().insert(930, Arc::new(Served::new(cluster_at(&m))));
    for line in [
        "delete pod",
        "delete pod web-1 --force --grace-period=5",
        "delete pod web-1 --now --grace-period=5",
        "delete pod web-1 --wait=maybe",
        "drain node-1 --pod-selector=app=(web",
        "drain node-1 --chunk-size=x",
    ] {
        let argv = words(line);
        let CommandLine::Error(ours) = CommandLine::parse(&argv, &refused_at.at(m.t)) else {
            panic!("{line}: refused")
        };
        let ran = k.run(930, &argv);
        if (ours.stdout.as_str(), ours.stderr.as_str(), ours.code)
            != (ran.stdout.as_str(), ran.stderr.as_str(), ran.code)
        {
            failures.push(format!(
                "kubectl {line}: kubectl {:?} {:?} {}\nnodeline {ours:?}",
                ran.stdout, ran.stderr, ran.code
            ));
        }
    }
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The real `kubectl taint` and `kubectl delete node` in chapter 6: the out-of-service taint on
/// the powered-off node-2 and its removal, another taint added, refused without `--overwrite`,
/// replaced with it, removed (the last one: a `null` list), kubectl's argument errors, and the
/// Node deleted; each against the test server replaying the simulation's answers
/// ([`check_change`]).
#[test]
fn real_kubectl_taint_and_delete_node_print_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let s = SimTime::from_secs;
    let dedicated = "taint:node-3/dedicated=db:NoSchedule@60s";
    let mut failures = Vec::new();
    for (id, actions, t, line) in [
        (950, "", s(400), "taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"),
        (951, "", s(720), "taint nodes node-2 node.kubernetes.io/out-of-service:NoExecute-"),
        (952, "", s(720), "taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute"),
        (953, "", s(720), "taint node node-2 node.kubernetes.io/out-of-service=later:NoExecute --overwrite"),
        (954, "", s(100), "taint nodes node-3 dedicated=db:NoSchedule"),
        (955, "", s(100), "taint nodes node-3 dedicated-"),
        (956, dedicated, s(100), "taint no node-3 dedicated:NoSchedule-"),
        (957, dedicated, s(100), "taint nodes node-3 dedicated=web:NoSchedule"),
        (958, "", s(100), "taint nodes node-3 dedicated=db:Sometimes"),
        (959, "", s(100), "taint nodes node-3 dedicated"),
        (960, "", s(100), "taint nodes node-3 Bad_Key=x:NoSchedule"),
        (961, "", s(100), "taint nodes node-9 dedicated=db:NoSchedule"),
        (962, "", s(100), "taint pods web-1 dedicated=db:NoSchedule"),
        (963, "", s(100), "taint nodes dedicated=db:NoSchedule"),
        (964, "", s(100), "taint nodes node-3 a=b:NoSchedule node-2"),
        (965, "", s(100), "delete node node-3"),
        (966, "", s(100), "delete nodes/node-2"),
        (967, "", s(100), "delete node nope"),
        (968, "", s(100), "delete node nope --ignore-not-found"),
    ] {
        failures.extend(check_change(&k, &server, id, Chapter::NodeGoesAway, actions, t, line));
    }
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The real `kubectl certificate approve|deny` and `kubectl delete secret` of a TLS bootstrap:
/// a CSR approved or denied by hand before the approver's pass, approving one already approved
/// (no request but the GET), denying an approved one (kubectl's error), a missing CSR, kubectl's
/// argument errors, and the bootstrap token's Secret deleted ([`check_change`]).
#[test]
fn real_kubectl_certificate_and_delete_secret_print_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let us = |n: u64| SimTime::ZERO + Duration::from_micros(n);
    let csr = BOOTSTRAP_CSR;
    let mut failures = Vec::new();
    for (id, t, line) in [
        (980, us(500), format!("certificate approve {csr}")),
        (981, us(500), format!("certificate deny {csr}")),
        (982, SimTime::from_secs(5), format!("certificate approve {csr}")),
        (983, SimTime::from_secs(5), format!("certificate deny {csr}")),
        (984, SimTime::from_secs(5), "certificate approve nope".to_string()),
        (985, SimTime::from_secs(5), "certificate approve".to_string()),
        (986, SimTime::from_secs(5), "-n kube-system delete secret bootstrap-token-07401b".to_string()),
    ] {
        failures.extend(check_change_at(&k, &server, id, bootstrap_moment(&line, "", t), &line));
    }
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences:\n\n{}", failures.len(), failures.join("\n\n"));
}

/// The real `kubectl logs` and `kubectl exec` against the test server answering as the
/// simulation answered nodeline's kubectl ([`check_change_at`]): kubectl's usage and flag errors
/// (printed before any request), a missing Pod (the GET's `404`), a container the Pod does not
/// have (the log's `400`), a kubelet with `serverTLSBootstrap` and its serving CSR pending (the
/// log's `500`, the TLS alert), and a stopped kubelet (the log's `500`, the refused dial).
/// (The upgrade requests of an `exec` that reaches the API server's proxy are not served here.)
#[test]
fn real_kubectl_logs_and_exec_print_what_nodeline_prints() {
    let Some(path) = require_kubectl() else { return };
    let dir = temp_dir();
    let server = Server::start();
    let k = Kubectl { path, dir: dir.clone(), port: server.port };
    let s = SimTime::from_secs;
    let unbound_pod = |m: &Moment| {
        let mut tl = timeline_of(m, Config::default());
        tl.run_until(m.t);
        let snap = tl.at(m.t);
        let pod = snap.pods().iter().find(|p| p.spec.node_name.is_empty()).expect("an unbound Pod").clone();
        pod.metadata.name.to_string()
    };
    let pod_at = |m: &Moment| {
        let mut tl = timeline_of(m, Config::default());
        tl.run_until(m.t);
        let snap = tl.at(m.t);
        let pod = snap.pods().iter().find(|p| !p.spec.node_name.is_empty()).expect("a bound Pod").clone();
        pod.metadata.name.to_string()
    };
    let mut failures = Vec::new();
    let chapter = |line: &str| moment(line, Chapter::NodeFailure, "", s(100));
    for (id, line) in [
        (990, "logs"),
        (991, "logs a b c"),
        (992, "logs a --bogus"),
        (993, "logs a -x"),
        (995, "exec"),
        (996, "exec a"),
        (997, "exec a ls"),
        (998, "exec -- ls"),
        (999, "exec a --bogus -- ls"),
        (1001, "logs nope"),
        (1002, "logs pod/nope"),
        (1003, "exec nope -- ls"),
    ] {
        failures.extend(check_change_at(&k, &server, id, chapter(line), line));
    }
    let web = pod_at(&chapter(""));
    let line = format!("logs {web} -c sidecar");
    failures.extend(check_change_at(&k, &server, 1004, chapter(&line), &line));
    let line = format!("exec {web} -c sidecar -- ls -l");
    failures.extend(check_change_at(&k, &server, 1007, chapter(&line), &line));
    // chapter 1 at 25s: the Pod is not bound yet.
    let unbound = moment("", Chapter::Registration, "", s(25));
    let line = format!("exec {} -- ls", unbound_pod(&unbound));
    failures.extend(check_change_at(&k, &server, 1008, Moment { label: line.clone(), ..unbound }, &line));
    // After the kubelet is killed at 2m: the API server's dial is refused.
    let line = format!("logs {web}");
    failures.extend(check_change_at(&k, &server, 1005, moment(&line, Chapter::NodeFailure, "", s(300)), &line));
    // node-1 with serverTLSBootstrap, its serving CSR pending: the TLS handshake fails.
    let pending = Moment { serving: true, ..bootstrap_moment("serving csr pending", "", s(60)) };
    let line = format!("logs {}", pod_at(&pending));
    failures.extend(check_change_at(&k, &server, 1006, Moment { label: line.clone(), ..pending }, &line));
    cleanup(&dir);
    let unknown = server.state.unknown.lock().unwrap();
    assert!(unknown.is_empty(), "kubectl asked for paths the test server does not serve:\n{}", unknown.join("\n"));
    assert!(failures.is_empty(), "{} differences:\n\n{}", failures.len(), failures.join("\n\n"));
}
