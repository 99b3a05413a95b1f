//! `kubectl logs` and `kubectl exec`: what kubectl prints and the requests it and the API server
//! make, in the TLS bootstrap story before and after the serving certificate is approved, in a
//! chapter, for a Pod that is missing, not bound, or on a stopped kubelet; and `nodeline
//! kubectl`'s note.

use std::path::Path;

use nodeline::render::kubectl_printer::Output;
use nodeline::render::kubectl_printer::entry;
use nodeline::render::kubectl_printer::logs::Note;
use nodeline::sim::record::{Outcome, Request, Response};
use nodeline::sim::{Action, Chapter, Config, SimTime, Timeline, parse_actions};

use crate::common::binary::nodeline;

fn story_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("stories").join("tls-bootstrap.yaml")
}

/// The TLS bootstrap story with the reader's `actions`.
fn tls_bootstrap(actions: &[Action]) -> Timeline {
    let text = std::fs::read_to_string(story_path()).expect("stories/tls-bootstrap.yaml");
    let story = nodeline::story::load(&text, Some("tls-bootstrap")).expect("a valid story");
    Timeline::from_scenario(story.scenario, story.config, actions)
}

fn words(line: &str) -> Vec<String> {
    line.split_whitespace().map(String::from).collect()
}

/// Runs `line` at `at` (as `nodeline kubectl` does), with the note and the requests the
/// reader's kubectl made then.
fn run(tl: &mut Timeline, line: &str, at: SimTime) -> (Output, Option<Note>, Vec<Request>) {
    tl.run_until(at);
    let (out, note) = entry::run_to_end_noted(tl, &words(line), at, at);
    let log = tl.log();
    // The command is the last input at `at`; its requests come after it.
    let after = log.inputs.iter().filter(|i| i.t == at).map(|i| i.seq).next_back().unwrap_or(0);
    let start = log.requests.first_from(at);
    let requests = log
        .requests
        .iter_from(start)
        .map(|r| r.into_owned())
        .filter(|r| r.t == at && r.seq > after && r.actor.to_string() == "kubectl")
        .collect();
    (out, note, requests)
}

fn code(r: &Request) -> u16 {
    match r.outcome {
        Outcome::Code(c) => c,
        Outcome::Timeout => 0,
    }
}

/// The requests as `METHOD PATH[?QUERY] CODE`.
fn lines(requests: &[Request]) -> Vec<String> {
    requests
        .iter()
        .map(|r| {
            let query = if r.query.is_empty() { String::new() } else { format!("?{}", r.query) };
            format!("{} {}{query} {}", r.method.as_str(), r.path, code(r))
        })
        .collect()
}

fn first_pod(tl: &Timeline, t: SimTime) -> String {
    tl.at(t).pods().first().expect("a Pod").metadata.name.to_string()
}

/// The serving certificate's CSR (signer `kubernetes.io/kubelet-serving`) at `t`.
fn serving_csr(tl: &Timeline, t: SimTime) -> String {
    let snap = tl.at(t);
    let csr = nodeline::render::kubectl_printer::Cluster::from_snapshot(&snap, snap.wall())
        .objects_of(nodeline::sim::objects::Kind::CertificateSigningRequest)
        .iter()
        .map(|o| o.to_json())
        .find(|j| j["spec"]["signerName"] == "kubernetes.io/kubelet-serving")
        .expect("the serving CSR");
    csr["metadata"]["name"].as_str().unwrap().to_string()
}

#[test]
fn before_approval_the_kubelet_has_no_serving_certificate_after_it_logs_are_not_simulated() {
    let actions = parse_actions("create-pod@1m").unwrap();
    let at = SimTime::from_secs(300);
    let mut tl = tls_bootstrap(&actions);
    tl.run_until(at);
    let pod = first_pod(&tl, at);
    let csr = serving_csr(&tl, at);

    // Pending: the API server's handshake with the kubelet fails.
    let (out, note, requests) = run(&mut tl, &format!("logs {pod}"), at);
    let url = format!("https://10.0.0.11:10250/containerLogs/default/{pod}/nginx");
    assert_eq!(
        (out.stdout.as_str(), out.stderr.as_str(), out.code, note),
        ("", format!("Error from server: Get \"{url}\": remote error: tls: internal error\n").as_str(), 1, None)
    );
    assert_eq!(
        lines(&requests),
        [
            format!("GET /api/v1/namespaces/default/pods/{pod} 200"),
            format!("GET /api/v1/namespaces/default/pods/{pod}/log?container=nginx 500")
        ]
    );
    let Some(Response::Status(status)) = &requests[1].response else { panic!("a Status") };
    assert_eq!((status.code, status.reason, status.status), (500, "", "Failure"));
    assert_eq!(status.message, format!("Get \"{url}\": remote error: tls: internal error"));
    // `exec` reaches the kubelet through kube-apiserver's stream translator, which reports the
    // failed dial inside the upgraded stream: nodeline says it does not simulate that.
    let (out, note, requests) = run(&mut tl, &format!("exec {pod} -- ls"), at);
    assert_eq!(
        (out.stderr.as_str(), out.code, note),
        ("nodeline: kubectl exec on a kubelet the API server cannot reach is not simulated\n", 1, None)
    );
    assert_eq!(lines(&requests), [format!("GET /api/v1/namespaces/default/pods/{pod} 200")]);

    // Approved at 3m, issued at once: the kubelet serves, and nodeline has no output to show.
    let mut approved = actions.clone();
    approved.extend(parse_actions(&format!("approve-csr:{csr}@3m")).unwrap());
    let mut tl = tls_bootstrap(&approved);
    let (out, note, requests) = run(&mut tl, &format!("logs {pod}"), at);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.code), ("", "", 0));
    assert_eq!(note, Some(Note::NoContainerOutput));
    assert_eq!(lines(&requests)[1], format!("GET /api/v1/namespaces/default/pods/{pod}/log?container=nginx 200"));
    let (out, note, requests) = run(&mut tl, &format!("exec {pod} -c nginx -- ls /"), at);
    assert_eq!((out.stdout.as_str(), out.stderr.as_str(), out.code, note), ("", "", 0, Some(Note::NoCommandRun)));
    assert_eq!(
        lines(&requests)[1],
        format!("GET /api/v1/namespaces/default/pods/{pod}/exec?container=nginx&stderr=true&stdout=true 101")
    );
}

#[test]
fn the_command_line_prints_the_note_on_stderr_with_status_0() {
    let story = story_path();
    let story = story.to_str().unwrap();
    let base = ["kubectl", "--story", story, "--actions", "create-pod@1m", "--at", "5m", "--"];
    let with = |args: &[&str]| nodeline(&[&base[..], args].concat());
    let name = with(&["get", "pods", "-o", "name"]).stdout;
    let pod = name.trim().trim_start_matches("pod/").to_string();
    let r = with(&["logs", &pod]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.ends_with(": remote error: tls: internal error\n"), "{}", r.stderr);
    let r = nodeline(&["kubectl", "--chapter", "node-failure", "--at", "1m40s", "--", "logs", "deploy/web"]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    let node_failure = |args: &[&str]| {
        let name =
            nodeline(&["kubectl", "--chapter", "node-failure", "--at", "1m40s", "--", "get", "pods", "-o", "name"]);
        let pod = name.stdout.trim().trim_start_matches("pod/").to_string();
        let mut all = vec!["kubectl", "--chapter", "node-failure", "--at", "1m40s", "--"];
        let args: Vec<String> = args.iter().map(|a| a.replace("POD", &pod)).collect();
        all.extend(args.iter().map(String::as_str));
        nodeline(&all)
    };
    let r = node_failure(&["logs", "POD"]);
    assert_eq!((r.stdout.as_str(), r.code), ("", 0));
    assert_eq!(
        r.stderr,
        "nodeline simulates no container output: the kubelet would answer with the container's log, which a real \
         kubectl prints on stdout. kubectl printed nothing else.\n"
    );
    let r = node_failure(&["exec", "POD", "--", "cat", "/etc/hostname"]);
    assert_eq!((r.stdout.as_str(), r.code), ("", 0));
    assert!(r.stderr.starts_with("nodeline runs no commands in containers"), "{}", r.stderr);
    let r = node_failure(&["logs"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.starts_with("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'."));
}

#[test]
fn a_chapter_s_pod_a_missing_one_an_unbound_one_and_a_stopped_kubelet() {
    // Chapter 2: the kubelet has its credentials and no serverTLSBootstrap: it serves.
    let mut tl = Timeline::new(Chapter::NodeFailure, Config::default());
    let at = SimTime::from_secs(100);
    tl.run_until(at);
    let pod = first_pod(&tl, at);
    let (out, note, _) = run(&mut tl, &format!("logs pod/{pod} -c nginx"), at);
    assert_eq!((out, note), (Output::default(), Some(Note::NoContainerOutput)));
    // `logs` words the builder's NotFound its own way; `exec` prints the API server's.
    let (out, note, requests) = run(&mut tl, "logs nope", at);
    assert_eq!(
        (out.stderr.as_str(), out.code, note),
        ("error: error from server (NotFound): pods \"nope\" not found in namespace \"default\"\n", 1, None)
    );
    assert_eq!(lines(&requests), ["GET /api/v1/namespaces/default/pods/nope 404"]);
    let (out, _, _) = run(&mut tl, "exec nope -- ls", at);
    assert_eq!(out.stderr, "Error from server (NotFound): pods \"nope\" not found\n");
    // `logs` checks the container itself; for `exec` the API server does.
    let (out, _, requests) = run(&mut tl, &format!("logs {pod} -c sidecar"), at);
    assert_eq!(
        (out.stderr.as_str(), out.code),
        (format!("error: container sidecar is not valid for pod {pod}\n").as_str(), 1)
    );
    assert_eq!(requests.len(), 1, "only the GET of the Pod");
    let (out, _, requests) = run(&mut tl, &format!("exec {pod} -c sidecar -- ls"), at);
    assert_eq!(out.stderr, format!("Error from server (BadRequest): container sidecar is not valid for pod {pod}\n"));
    assert_eq!(code(&requests[1]), 400);
    // After the kubelet is killed (2m in the chapter; the reads above do not stop the chapter's
    // script), nothing listens on its port.
    let at = SimTime::from_secs(300);
    let (out, note, _) = run(&mut tl, &format!("logs {pod}"), at);
    assert_eq!(
        (out.stderr, out.code, note),
        (
            format!(
                "Error from server: Get \"https://10.0.0.11:10250/containerLogs/default/{pod}/nginx\": dial tcp \
                 10.0.0.11:10250: connect: connection refused\n"
            ),
            1,
            None
        )
    );
    let (out, _, _) = run(&mut tl, &format!("exec {pod} -- ls"), at);
    assert_eq!(out.stderr, "nodeline: kubectl exec on a kubelet the API server cannot reach is not simulated\n");

    // Chapter 1 at 25s: the Pod is not bound yet. `logs` gets an empty answer (204), `exec` the
    // API server's BadRequest.
    let mut tl = Timeline::new(Chapter::Registration, Config::default());
    let at = SimTime::from_secs(25);
    tl.run_until(at);
    let pod = first_pod(&tl, at);
    assert!(tl.at(at).pods()[0].spec.node_name.is_empty(), "not bound yet");
    let (out, note, requests) = run(&mut tl, &format!("logs {pod}"), at);
    assert_eq!((out, note), (Output::default(), None));
    assert_eq!(lines(&requests)[1], format!("GET /api/v1/namespaces/default/pods/{pod}/log?container=nginx 204"));
    let (out, note, requests) = run(&mut tl, &format!("exec {pod} -- ls"), at);
    assert_eq!(
        (out.stderr, out.code, note),
        (format!("Error from server (BadRequest): pod {pod} does not have a host assigned\n"), 1, None)
    );
    // The WebSocket upgrade refused, then kubectl's SPDY fallback.
    let exec = format!("/api/v1/namespaces/default/pods/{pod}/exec?container=nginx&stderr=true&stdout=true 400");
    assert_eq!(lines(&requests)[1..], [format!("GET {exec}"), format!("POST {exec}")]);
    // At 40s the tolerant Pod is bound and its container waiting: the kubelet's answer.
    let at = SimTime::from_secs(40);
    tl.run_until(at);
    let snap = tl.at(at);
    let tolerant =
        snap.pods().iter().find(|p| p.metadata.name.starts_with("tolerant-")).unwrap().metadata.name.to_string();
    let (out, note, requests_waiting) = run(&mut tl, &format!("logs {tolerant}"), at);
    assert_eq!(
        (out.stderr, out.code, note),
        (
            format!(
                "Error from server (BadRequest): container \"nginx\" in pod \"{tolerant}\" is waiting to start: \
                 ContainerCreating\n"
            ),
            1,
            None
        )
    );
    assert_eq!(code(&requests_waiting[1]), 400);
    let (out, _, _) = run(&mut tl, &format!("exec {tolerant} -- ls"), at);
    assert_eq!(out.stderr, "nodeline: kubectl exec on a container that is not running is not simulated\n");
}
