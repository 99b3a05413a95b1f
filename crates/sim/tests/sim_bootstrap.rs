//! The kubelet's TLS bootstrap (a machine with `bootstrap`), read from the timeline: the order of
//! its requests, their paths, verbs and senders, the CSR as the API server keeps it, the
//! approval and the certificate, the files on the machine, the timings; and that a machine
//! without it does none of this (docs/kubernetes-notes/core.md, "TLS bootstrap").
#![cfg(not(target_arch = "wasm32"))]

use std::sync::Arc;
use std::time::Duration;

use nodeline_sim::objects::{CertificateSigningRequest, Object, Secret, certificate_validity, request_subject};
use nodeline_sim::{Actor, Chapter, Config, Method, Outcome, SimTime, Timeline, WallTime};

const NODE_1: &str = "node-1";

fn kubelet() -> Actor {
    Actor::Kubelet(NODE_1.into())
}

fn bootstrapping() -> Actor {
    Actor::KubeletBootstrap(NODE_1.into())
}

/// Chapter 1's cluster with node-1 bootstrapping, and `settings` set.
fn bootstrap_timeline(settings: &[(&str, &str, &str)], until: SimTime) -> Timeline {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    let mut config = Config::default();
    for (component, name, value) in settings {
        config.settings.set(component, name, value).expect("a modelled setting");
    }
    let mut timeline = Timeline::from_scenario(scenario, config, &[]);
    timeline.run_until(until);
    timeline
}

fn ms(n: u64) -> SimTime {
    SimTime::ZERO + Duration::from_millis(n)
}

fn the_csr(timeline: &Timeline, at: SimTime) -> Arc<CertificateSigningRequest> {
    let csrs = timeline.at(at).all::<CertificateSigningRequest>();
    assert_eq!(csrs.len(), 1, "one CSR");
    csrs[0].clone()
}

/// Every request, in order, up to the Node's registration: the token's Secret, the kubelet's
/// wait for the API server, its CSR and its list-and-watch (all as the bootstrap token's user),
/// the approver's SubjectAccessReview and approval, the signer's status, then the kubelet as
/// `system:node:node-1`.
#[test]
fn the_bootstrap_s_requests_come_in_order_before_registration() {
    let timeline = bootstrap_timeline(&[], SimTime::from_secs(5));
    let log = timeline.log();
    let csr = the_csr(&timeline, SimTime::from_secs(5));
    let name = csr.metadata.name.to_string();
    let csrs = "/apis/certificates.k8s.io/v1/certificatesigningrequests";
    let rows: Vec<(SimTime, Actor, Method, String, String, Outcome)> = log
        .requests
        .iter()
        .take_while(|r| !(r.method == Method::Post && &*r.path == "/api/v1/nodes"))
        .filter(|r| r.actor != kubelet() || !r.path.contains("csinodes"))
        .map(|r| (r.t, r.actor.clone(), r.method, r.path.to_string(), r.query.to_string(), r.outcome))
        .collect();
    let want_head = [
        (ms(0), Actor::Kubectl, Method::Post, "/api/v1/namespaces/kube-system/secrets".to_string(), 201),
        (ms(0), bootstrapping(), Method::Get, "/healthz".into(), 200),
        (ms(0), bootstrapping(), Method::Post, csrs.into(), 201),
        (ms(0), bootstrapping(), Method::Get, csrs.into(), 200),
        (ms(0), bootstrapping(), Method::Get, csrs.into(), 200),
        (
            ms(1),
            Actor::CsrApprovingController,
            Method::Post,
            "/apis/authorization.k8s.io/v1/subjectaccessreviews".into(),
            201,
        ),
        (ms(1), Actor::CsrApprovingController, Method::Put, format!("{csrs}/{name}/approval"), 200),
        (ms(2), Actor::CsrSigningController, Method::Put, format!("{csrs}/{name}/status"), 200),
    ];
    let got_head: Vec<_> =
        rows.iter().take(want_head.len()).map(|(t, a, m, p, _, o)| (*t, a.clone(), *m, p.clone(), *o)).collect();
    let want_head: Vec<_> = want_head.into_iter().map(|(t, a, m, p, c)| (t, a, m, p, Outcome::Code(c))).collect();
    assert_eq!(got_head, want_head);
    // The list and the watch, by name.
    let selector = format!("fieldSelector=metadata.name%3D{name}");
    assert_eq!(rows[3].4, format!("{selector}&limit=500&resourceVersion=0"));
    assert!(rows[4].4.starts_with(&format!("allowWatchBookmarks=true&{selector}&resourceVersion=")), "{}", rows[4].4);
    assert!(rows[4].4.ends_with("&watch=true"), "{}", rows[4].4);
    assert_eq!(rows[1].4, "timeout=1s");
    // After the certificate, only the kubelet's own identity: no request of the bootstrap
    // user after the signing.
    let signed = rows[7].0;
    assert!(log.requests.iter().filter(|r| r.t > signed).all(|r| r.actor != bootstrapping()));
    let register = log
        .requests
        .iter()
        .find(|r| r.method == Method::Post && &*r.path == "/api/v1/nodes")
        .expect("the Node is registered");
    assert_eq!(register.actor, kubelet());
    assert_eq!(register.actor.user(NODE_1), "system:node:node-1");
    assert_eq!(register.outcome, Outcome::Code(201));
    // The kubelet's loops start when its files are written (3 ms: the watch delivers the
    // certificate a reconcile pass after the signing), registration 450 ms later.
    assert_eq!(register.t, ms(3) + Duration::from_millis(450));
    assert_eq!(bootstrapping().user(NODE_1), "system:bootstrap:07401b");
}

/// The CSR as the kubelet sends it and as the API server keeps it: named from its key, the
/// kubelet client signer, an ECDSA key's usages, a request for `CN=system:node:node-1,
/// O=system:nodes`, the requester the bootstrap token's user and groups; approved by csrapproving
/// with its reason and message; its certificate valid from 5 minutes before its signing for
/// `--cluster-signing-duration` (1 year), less the backdate.
#[test]
fn the_csr_is_named_requested_approved_and_signed_as_kubernetes_does() {
    let timeline = bootstrap_timeline(&[], SimTime::from_secs(5));
    let log = timeline.log();
    let post = log
        .requests
        .iter()
        .find(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .expect("the CSR's POST");
    let Some(nodeline_sim::record::Body::Object(Object::CertificateSigningRequest(sent))) = &post.body else {
        panic!("the POST carries a CSR: {:?}", post.body)
    };
    assert!(sent.spec.username.is_empty() && sent.spec.groups.is_empty(), "the client sends no user");
    let csr = the_csr(&timeline, SimTime::from_secs(5));
    let name = csr.metadata.name.as_str();
    let digest = name.strip_prefix("node-csr-").expect("node-csr-…");
    assert_eq!(digest.len(), 43, "base64url of a 32-byte SHA-512/256 digest, unpadded");
    assert!(digest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_'));
    assert_eq!(csr.spec.signer_name, "kubernetes.io/kube-apiserver-client-kubelet");
    assert_eq!(csr.spec.usages, ["digital signature", "client auth"]);
    assert_eq!(csr.spec.expiration_seconds, None);
    assert_eq!(
        request_subject(&csr.spec.request),
        Some(("system:node:node-1".to_string(), vec!["system:nodes".to_string()]))
    );
    assert_eq!(csr.spec.username, "system:bootstrap:07401b");
    assert_eq!(
        csr.spec.groups,
        ["system:bootstrappers", "system:bootstrappers:kubeadm:default-node-token", "system:authenticated"]
    );
    let approved = csr.condition("Approved").expect("approved");
    assert_eq!((approved.status, approved.reason), ("True", "AutoApproved"));
    assert_eq!(approved.message, "Auto approving kubelet client certificate after SubjectAccessReview.");
    assert_eq!(csr.condition_text(), "Approved,Issued");
    let epoch = Config::default().epoch;
    assert_eq!(approved.last_update_time.map(|t| t.0), Some(epoch));
    let (not_before, not_after) = certificate_validity(&csr.status.certificate).expect("a certificate");
    assert_eq!(not_before, WallTime(epoch.0 - 300_000_000), "backdated 5 minutes");
    assert_eq!(not_after, WallTime(epoch.0 + (365 * 24 * 3600 - 300) * 1_000_000), "1 year, less the backdate");
    // The SubjectAccessReview asks for `nodeclient`, for the CSR's requester.
    let sar = log.requests.iter().find(|r| r.path.ends_with("/subjectaccessreviews")).expect("a review");
    let body = sar.body.as_ref().and_then(|b| b.json()).expect("a JSON body");
    assert_eq!(body["spec"]["resourceAttributes"]["subresource"], "nodeclient");
    assert_eq!(body["spec"]["resourceAttributes"]["verb"], "create");
    assert_eq!(body["spec"]["user"], "system:bootstrap:07401b");
    // The token's Secret.
    let secrets = timeline.at(SimTime::from_secs(5)).all::<Secret>();
    assert_eq!(secrets.len(), 1);
    assert_eq!(&*secrets[0].metadata.name, "bootstrap-token-07401b");
    assert_eq!(&*secrets[0].metadata.namespace, "kube-system");
    assert_eq!(secrets[0].type_, "bootstrap.kubernetes.io/token");
}

/// The kubelet's lines, in order, and the files it writes: the machine shows its certificate
/// (`kubelet-client-<time>.pem`) once it is written.
#[test]
fn the_kubelet_logs_its_wait_and_writes_its_certificate() {
    let timeline = bootstrap_timeline(&[], SimTime::from_secs(5));
    let log = timeline.log();
    let name = the_csr(&timeline, SimTime::from_secs(5)).metadata.name.to_string();
    let lines: Vec<(SimTime, String)> =
        log.lines.iter().filter(|l| l.actor == kubelet()).map(|l| (l.t, l.message.to_string())).take(6).collect();
    let want = [
        (ms(0), "\"Kubelet version\" kubeletVersion=\"v1.34.1\"".to_string()),
        (ms(0), "\"Using bootstrap kubeconfig to generate TLS client cert, key and kubeconfig file\"".into()),
        (ms(0), "\"Waiting for client certificate to be issued\"".into()),
        (ms(2), format!("certificate signing request {name} is approved, waiting to be issued")),
        (ms(3), format!("certificate signing request {name} is issued")),
    ];
    assert_eq!(&lines[..5], &want);
    assert!(
        lines[5].1.starts_with("/var/lib/kubelet/pki/kubelet-client-2026-03-02-09-00-00.pem written"),
        "{}",
        lines[5].1
    );
    let before = timeline.at(ms(2)).machines()[0].client_certificate.clone();
    assert_eq!(before, None);
    let after = timeline.at(ms(4)).machines()[0].client_certificate.clone().expect("the certificate");
    assert_eq!(after.file, "kubelet-client-2026-03-02-09-00-00.pem");
    assert_eq!(after.csr, name);
    assert!(timeline.at(ms(4)).machines()[0].bootstrap);
}

/// `--cluster-signing-duration` sets the validity; a short one (under 8 h) is not backdated at
/// its end.
#[test]
fn the_signing_duration_is_the_setting() {
    let timeline =
        bootstrap_timeline(&[("kube-controller-manager", "cluster-signing-duration", "1h")], SimTime::from_secs(5));
    let csr = the_csr(&timeline, SimTime::from_secs(5));
    let (not_before, not_after) = certificate_validity(&csr.status.certificate).expect("a certificate");
    let epoch = Config::default().epoch;
    assert_eq!((not_before, not_after), (WallTime(epoch.0 - 300_000_000), WallTime(epoch.0 + 3_600_000_000)));
}

/// Off by default: chapter 1's kubelet sends no CSR, and there is no token.
#[test]
fn without_bootstrap_there_is_no_csr() {
    let mut timeline = Timeline::new(Chapter::Registration, Config::default());
    timeline.run_until(SimTime::from_secs(60));
    let log = timeline.log();
    assert!(log.requests.iter().all(|r| !r.path.contains("certificates.k8s.io") && !r.path.contains("secrets")));
    assert!(log.requests.iter().all(|r| r.actor != bootstrapping()));
    assert!(timeline.at(SimTime::from_secs(60)).all::<CertificateSigningRequest>().is_empty());
}

/// The ends of `--cluster-signing-duration`'s range: a microsecond (not backdated at its end) and
/// ten years (less the backdate); the duration parser takes the default, 8760h, which is longer
/// than the notation's week.
#[test]
fn the_signing_duration_s_range_ends_sign() {
    let epoch = Config::default().epoch;
    for (value, not_after) in [("1us", epoch.0 + 1), ("87600h", epoch.0 + (87_600 * 3600 - 300) * 1_000_000)] {
        let timeline = bootstrap_timeline(
            &[("kube-controller-manager", "cluster-signing-duration", value)],
            SimTime::from_secs(2),
        );
        let csr = the_csr(&timeline, SimTime::from_secs(2));
        let (_, got) = certificate_validity(&csr.status.certificate).expect("a certificate");
        // (The certificate keeps whole seconds.)
        assert_eq!(got, WallTime(not_after).truncate_secs(), "{value}");
    }
    let mut settings = nodeline_sim::settings::Settings::default();
    assert!(settings.set("kube-controller-manager", "cluster-signing-duration", "8760h0m0s").is_ok());
    assert!(settings.set("kube-controller-manager", "cluster-signing-duration", "87601h").is_err());
    assert!(settings.set("kube-controller-manager", "cluster-signing-duration", "0s").is_err());
}

/// Chapter 1's cluster with node-1 bootstrapping, its kubelet started at 10 s, and the reader's
/// `actions`.
fn late_bootstrap(actions: &str, until: SimTime) -> Timeline {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    scenario.machines[0].kubelet_start = Some(Duration::from_secs(10));
    let actions = nodeline_sim::parse_actions(actions).expect("actions parse");
    let mut timeline = Timeline::from_scenario(scenario, Config::default(), &actions);
    timeline.run_until(until);
    timeline
}

/// The token's Secret deleted before the kubelet starts: every request with the token is
/// `401 Unauthorized`, `/healthz` too, polled every 2 s (jitter 0.2) for a minute; then the CSR's
/// POST fails, the kubelet exits with the error, and systemd starts it again 10 s later.
#[test]
fn without_its_token_the_kubelet_cannot_bootstrap() {
    let timeline = late_bootstrap("delete-bootstrap-token@5s", SimTime::from_secs(90));
    let log = timeline.log();
    let deleted = log.requests.iter().find(|r| r.method == Method::Delete).expect("kubectl's DELETE");
    assert_eq!(&*deleted.path, "/api/v1/namespaces/kube-system/secrets/bootstrap-token-07401b");
    assert_eq!((deleted.actor.clone(), deleted.outcome), (Actor::Kubectl, Outcome::Code(200)));
    let healthz: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| &*r.path == "/healthz")
        .inspect(|r| assert_eq!((r.actor.clone(), r.outcome), (bootstrapping(), Outcome::Code(401))))
        .map(|r| r.t)
        .collect();
    assert_eq!(healthz[0], SimTime::from_secs(10));
    for w in healthz.windows(2).take_while(|w| w[1] < SimTime::from_secs(70)) {
        let gap = w[1] - w[0];
        assert!((Duration::from_secs(2)..=Duration::from_millis(2400)).contains(&gap), "{gap:?}");
    }
    let post = log
        .requests
        .iter()
        .find(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .expect("the CSR is sent anyway");
    assert_eq!(post.outcome, Outcome::Code(401));
    assert_eq!(post.t, SimTime::from_secs(70), "after waitForServer's minute");
    let lines: Vec<(SimTime, &str)> =
        log.lines.iter().filter(|l| l.actor == kubelet()).map(|l| (l.t, &*l.message)).collect();
    assert!(lines.contains(&(SimTime::from_secs(10), "\"Failed to connect to apiserver\" err=\"Unauthorized\"")));
    assert!(lines.contains(&(
        SimTime::from_secs(70),
        "\"Error waiting for apiserver to come up\" err=\"timed out waiting to connect to apiserver\""
    )));
    assert!(lines.contains(&(
        SimTime::from_secs(70),
        "\"command failed\" err=\"cannot create certificate signing request: Unauthorized\""
    )));
    // systemd starts it again: a new attempt at 80 s.
    assert!(healthz.contains(&SimTime::from_secs(80)), "{healthz:?}");
    assert!(timeline.at(SimTime::from_secs(90)).all::<CertificateSigningRequest>().is_empty());
    assert!(log.requests.iter().all(|r| &*r.path != "/api/v1/nodes"), "no Node");
}

/// The reader denies the CSR before the approver's pass: csrapproving leaves a denied CSR alone,
/// the kubelet's watch sees `Denied` and the kubelet exits with its reason and message; started
/// again, it finds its CSR (same key, same name: `409`) and stops on it again.
#[test]
fn a_denied_csr_stops_the_kubelet() {
    let name = late_bootstrap("", SimTime::from_secs(11)).at(SimTime::from_secs(11)).all::<CertificateSigningRequest>()
        [0]
    .metadata
    .name
    .to_string();
    let timeline = late_bootstrap(&format!("deny-csr:{name}@10000500us"), SimTime::from_secs(25));
    let log = timeline.log();
    let csr = the_csr(&timeline, SimTime::from_secs(25));
    let denied = csr.condition("Denied").expect("denied");
    assert_eq!(
        (denied.reason, denied.message.as_str()),
        ("KubectlDeny", "This CSR was denied by kubectl certificate deny.")
    );
    assert!(csr.condition("Approved").is_none() && csr.status.certificate.is_empty());
    assert_eq!(csr.condition_text(), "Denied");
    assert!(log.requests.iter().all(|r| r.actor != Actor::CsrApprovingController), "the approver skips it");
    let kubectl: Vec<&str> = log.lines.iter().filter(|l| l.actor == Actor::Kubectl).map(|l| &*l.message).collect();
    assert!(kubectl.contains(&format!("certificatesigningrequest.certificates.k8s.io/{name} denied").as_str()));
    let why = "certificate signing request is denied, reason: KubectlDeny, message: This CSR was denied by kubectl certificate deny.";
    let failed: Vec<SimTime> = log
        .lines
        .iter()
        .filter(|l| l.actor == kubelet() && *l.message == *format!("\"command failed\" err=\"{why}\""))
        .map(|l| l.t)
        .collect();
    assert_eq!(failed.first(), Some(&(SimTime::from_secs(10) + Duration::from_millis(1))));
    // Started again 10 s later: 409, the CSR reused, denied again.
    assert!(failed.len() >= 2, "{failed:?}");
    let lines: Vec<&str> = log.lines.iter().filter(|l| l.actor == kubelet()).map(|l| &*l.message).collect();
    assert!(lines.contains(&"csr for this node already exists, reusing"));
    assert!(lines.contains(&"csr for this node is still valid"));
    let conflict = log
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .nth(1)
        .expect("a second POST");
    assert_eq!(conflict.outcome, Outcome::Code(409));
}

/// kubeadm's binding that lets bootstrap tokens' CSRs be approved is deleted: csrapproving still
/// asks its SubjectAccessReview, is refused, approves nothing and logs why (V(4)); the CSR stays
/// `Pending` and the kubelet waits on its watch. The reader's `kubectl certificate approve` then
/// does what the controller did not: csrsigning signs, the kubelet writes its files and registers.
#[test]
fn without_the_binding_the_csr_stays_pending_until_approved_by_hand() {
    let pending = late_bootstrap("delete-autoapprove-binding@5s", SimTime::from_secs(30));
    let log = pending.log();
    let delete = log.requests.iter().find(|r| r.method == Method::Delete).expect("kubectl's DELETE");
    assert_eq!(
        &*delete.path,
        "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/kubeadm:node-autoapprove-bootstrap"
    );
    assert_eq!(delete.outcome, Outcome::Code(200));
    let csr = the_csr(&pending, SimTime::from_secs(30));
    let name = csr.metadata.name.to_string();
    assert_eq!(csr.condition_text(), "Pending");
    assert!(
        log.requests
            .iter()
            .any(|r| r.actor == Actor::CsrApprovingController && r.path.ends_with("/subjectaccessreviews"))
    );
    assert!(log.requests.iter().all(|r| !r.path.ends_with("/approval")), "nothing approved");
    let line = format!(
        "\"sync certificate request failed\" csr=\"{name}\" err=\"recognized csr \\\"{name}\\\" as [nodeclient] but subject access review was not approved\""
    );
    assert!(
        log.lines.iter().any(|l| l.actor == Actor::CsrApprovingController && *l.message == *line),
        "the approver's line"
    );
    assert!(log.requests.iter().all(|r| &*r.path != "/api/v1/nodes"), "no Node while the CSR waits");

    let approved =
        late_bootstrap(&format!("delete-autoapprove-binding@5s,approve-csr:{name}@20s"), SimTime::from_secs(30));
    let log = approved.log();
    let csr = the_csr(&approved, SimTime::from_secs(30));
    let condition = csr.condition("Approved").expect("approved");
    assert_eq!(
        (condition.reason, condition.message.as_str()),
        ("KubectlApprove", "This CSR was approved by kubectl certificate approve.")
    );
    assert_eq!(csr.condition_text(), "Approved,Issued");
    let approval = log.requests.iter().find(|r| r.path.ends_with("/approval")).expect("the approval");
    assert_eq!((approval.actor.clone(), approval.t), (Actor::Kubectl, SimTime::from_secs(20)));
    let signed = log.requests.iter().find(|r| r.actor == Actor::CsrSigningController).expect("signed");
    assert_eq!(signed.t, SimTime::from_secs(20) + Duration::from_millis(1));
    let register = log.requests.iter().find(|r| &*r.path == "/api/v1/nodes").expect("registered");
    assert_eq!(register.t, SimTime::from_secs(20) + Duration::from_millis(452));
}

/// Chapter 1's cluster with node-1 bootstrapping and `serverTLSBootstrap`, and the reader's
/// `actions`.
fn serving(actions: &str, until: SimTime) -> Timeline {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    scenario.machines[0].server_tls_bootstrap = true;
    let actions = nodeline_sim::parse_actions(actions).expect("actions parse");
    let mut timeline = Timeline::from_scenario(scenario, Config::default(), &actions);
    timeline.run_until(until);
    timeline
}

/// With `serverTLSBootstrap`, once the kubelet has seen its Node's addresses it asks, as
/// `system:node:node-1`, for a serving certificate (`kubernetes.io/kubelet-serving`, a name the
/// API server generates, the Node's hostname and IP as subject alternative names); csrapproving
/// recognizes no such request and asks nothing: it stays `Pending`. Approved by hand, it is
/// signed and written, and the next rotation is set between 70 % and 90 % of its life.
#[test]
fn a_serving_csr_stays_pending_until_approved_by_hand() {
    let pending = serving("", SimTime::from_secs(60));
    let log = pending.log();
    let csrs = pending.at(SimTime::from_secs(60)).all::<CertificateSigningRequest>();
    let serving_csr =
        csrs.iter().find(|c| c.spec.signer_name == "kubernetes.io/kubelet-serving").expect("a serving CSR");
    let name = serving_csr.metadata.name.to_string();
    assert!(name.starts_with("csr-") && name.len() == 9, "{name}");
    assert_eq!(serving_csr.spec.username, "system:node:node-1");
    assert_eq!(serving_csr.spec.groups, ["system:nodes", "system:authenticated"]);
    assert_eq!(serving_csr.spec.usages, ["digital signature", "server auth"]);
    assert_eq!(
        request_subject(&serving_csr.spec.request),
        Some(("system:node:node-1".to_string(), vec!["system:nodes".to_string()]))
    );
    assert_eq!(
        nodeline_sim::objects::request_sans(&serving_csr.spec.request),
        (vec!["node-1".to_string()], vec!["10.0.0.11".to_string()])
    );
    assert_eq!(serving_csr.condition_text(), "Pending");
    let post = log
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .nth(1)
        .expect("the serving CSR's POST");
    let registered = log.requests.iter().find(|r| &*r.path == "/api/v1/nodes").expect("registered").t;
    assert_eq!(post.actor, kubelet());
    assert!(post.t > registered && post.t < registered + Duration::from_secs(3), "{:?} after {:?}", post.t, registered);
    let sars = log.requests.iter().filter(|r| r.path.ends_with("/subjectaccessreviews")).count();
    assert_eq!(sars, 1, "only the client CSR's review: a serving CSR is recognized by no recognizer");
    assert_eq!(pending.at(SimTime::from_secs(60)).machines()[0].serving_certificate, None);

    let approved = serving(&format!("approve-csr:{name}@30s"), SimTime::from_secs(60));
    let log = approved.log();
    let signed =
        log.requests.iter().find(|r| r.actor == Actor::CsrSigningController && r.path.contains(&name)).expect("signed");
    assert_eq!(signed.t, SimTime::from_secs(30) + Duration::from_millis(1));
    let cert = approved.at(SimTime::from_secs(60)).machines()[0].serving_certificate.clone().expect("written");
    assert_eq!(cert.file, "kubelet-server-2026-03-02-09-00-30.pem");
    let lines: Vec<&str> = log.lines.iter().filter(|l| l.actor == kubelet()).map(|l| &*l.message).collect();
    let deadline = lines
        .iter()
        .find(|l| l.starts_with("\"Certificate rotation deadline determined\""))
        .expect("the deadline line");
    assert!(
        deadline.starts_with(
            "\"Certificate rotation deadline determined\" expiration=\"2027-03-02 08:55:30 +0000 UTC\" deadline=\""
        ),
        "{deadline}"
    );
    assert!(deadline.ends_with("logger=\"kubernetes.io/kubelet-serving\""), "{deadline}");
    // The deadline, 70 % to 90 % of the year less 5 minutes from notBefore.
    let (not_before, not_after) = (cert.not_before.0, cert.not_after.0);
    let wait = lines.iter().find(|l| l.starts_with("\"Waiting for next certificate rotation\"")).expect("the wait");
    let sleep = wait.split('"').nth(3).expect("sleep=\"…\"");
    let sleep = nodeline_sim::parse_go_duration(sleep).map(|d| d.as_micros() as i64);
    let at = SimTime::from_secs(30) + Duration::from_millis(2);
    let now = Config::default().epoch.0 + at.as_micros() as i64;
    let fraction = |s: i64| (now + s - not_before) as f64 / (not_after - not_before) as f64;
    // (The sleep is printed to the microsecond; a year exceeds the notation's week, so it is
    // parsed only when it is short.)
    if let Ok(s) = sleep {
        assert!((0.7..=0.9).contains(&fraction(s)), "{wait}");
    }
    assert!(lines.contains(&"\"Rotating certificates\" logger=\"kubernetes.io/kubelet-serving\""));
}

/// Not approved in 15 minutes: the manager logs that its request was not signed and, after its
/// backoff (2 s, jitter 0.1), sends a new one with a new key: two `Pending` requests.
#[test]
fn an_unsigned_serving_csr_is_asked_again_after_fifteen_minutes() {
    let timeline = serving("", SimTime::from_secs(17 * 60));
    let serving: Vec<_> = timeline
        .at(SimTime::from_secs(17 * 60))
        .all::<CertificateSigningRequest>()
        .into_iter()
        .filter(|c| c.spec.signer_name == "kubernetes.io/kubelet-serving")
        .collect();
    assert_eq!(serving.len(), 2, "a second request");
    assert!(serving.iter().all(|c| c.condition_text() == "Pending"));
    let log = timeline.log();
    let failed = log
        .lines
        .iter()
        .find(|l| l.message.starts_with("\"Certificate request was not signed\""))
        .expect("the failure");
    assert_eq!(
        &*failed.message,
        "\"Certificate request was not signed\" err=\"timed out waiting for the condition\" logger=\"kubernetes.io/kubelet-serving\""
    );
    let posts: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests") && r.actor == kubelet())
        .map(|r| r.t)
        .collect();
    assert_eq!(posts.len(), 2);
    assert_eq!(failed.t, posts[0] + Duration::from_secs(15 * 60));
    let gap = posts[1] - failed.t;
    assert!((Duration::from_secs(2)..=Duration::from_millis(2200)).contains(&gap), "{gap:?}");
}

/// With `--cluster-signing-duration` 1h, the serving certificate approved at 30 s is rotated at a
/// deadline between 70 % and 90 % of its hour (not backdated at its end: under 8 h): the manager
/// logs the wait, and at the deadline sends a new request, `Pending` again.
#[test]
fn a_serving_certificate_is_rotated_between_70_and_90_percent_of_its_life() {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    scenario.machines[0].server_tls_bootstrap = true;
    let mut config = Config::default();
    config.settings.set("kube-controller-manager", "cluster-signing-duration", "1h").expect("a setting");
    let first = serving("", SimTime::from_secs(5)).at(SimTime::from_secs(5)).all::<CertificateSigningRequest>();
    let name = first
        .iter()
        .find(|c| c.spec.signer_name == "kubernetes.io/kubelet-serving")
        .expect("pending")
        .metadata
        .name
        .to_string();
    let actions = nodeline_sim::parse_actions(&format!("approve-csr:{name}@30s")).expect("actions parse");
    let mut timeline = Timeline::from_scenario(scenario, config, &actions);
    timeline.run_until(SimTime::from_secs(3600));
    let log = timeline.log();
    let wait = log
        .lines
        .iter()
        .find(|l| l.message.starts_with("\"Waiting for next certificate rotation\""))
        .expect("the wait");
    let sleep = nodeline_sim::parse_go_duration(wait.message.split('"').nth(3).expect("sleep")).expect("a duration");
    let cert = timeline.at(SimTime::from_secs(60)).machines()[0].serving_certificate.clone().expect("written");
    let life = (cert.not_after.0 - cert.not_before.0) as f64;
    let now = Config::default().epoch.0 + wait.t.as_micros() as i64;
    let fraction = (now + sleep.as_micros() as i64 - cert.not_before.0) as f64 / life;
    assert!((0.7..=0.9).contains(&fraction), "{fraction}");
    let posts: Vec<SimTime> = log
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests") && r.actor == kubelet())
        .map(|r| r.t)
        .collect();
    assert_eq!(posts.len(), 2, "the rotation's request: {posts:?}");
    assert_eq!(posts[1], wait.t + sleep, "sent at the deadline");
}

/// The client CSRs in the order they were created.
fn client_csrs(timeline: &Timeline, at: SimTime) -> Vec<Arc<CertificateSigningRequest>> {
    let mut csrs: Vec<_> = timeline
        .at(at)
        .all::<CertificateSigningRequest>()
        .into_iter()
        .filter(|c| c.spec.signer_name == "kubernetes.io/kube-apiserver-client-kubelet")
        .collect();
    csrs.sort_by_key(|c| c.metadata.creation_timestamp);
    csrs
}

/// With `rotateCertificates`, the client certificate manager bootstraps: no wait for
/// `/healthz`, a request with an empty name that the API server names `csr-` and five
/// characters, sent with the bootstrap token and approved through `nodeclient`; the rest of the
/// kubelet starts once the certificate is written.
#[test]
fn with_rotation_the_bootstrap_csr_is_named_by_the_api_server() {
    let timeline = bootstrap_timeline(&[("kubelet", "rotateCertificates", "true")], SimTime::from_secs(5));
    let log = timeline.log();
    assert!(!log.requests.iter().any(|r| &*r.path == "/healthz"), "the manager does not wait for /healthz");
    let post = log
        .requests
        .iter()
        .find(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .expect("the CSR's POST");
    assert_eq!((post.t, post.actor.clone()), (ms(0), bootstrapping()));
    let Some(nodeline_sim::record::Body::Object(Object::CertificateSigningRequest(sent))) = &post.body else {
        panic!("the POST carries a CSR: {:?}", post.body)
    };
    assert!(sent.metadata.name.is_empty(), "an empty name");
    assert_eq!(&*sent.metadata.generate_name, "csr-");
    let csr = the_csr(&timeline, SimTime::from_secs(5));
    let name = csr.metadata.name.to_string();
    let suffix = name.strip_prefix("csr-").expect("csr-…");
    assert_eq!(suffix.len(), 5, "{name}");
    assert_eq!(csr.spec.username, "system:bootstrap:07401b");
    assert_eq!(csr.spec.usages, ["digital signature", "client auth"]);
    let approved = csr.condition("Approved").expect("approved");
    assert_eq!(approved.message, "Auto approving kubelet client certificate after SubjectAccessReview.");
    let lines: Vec<(SimTime, String)> =
        log.lines.iter().filter(|l| l.actor == kubelet()).map(|l| (l.t, l.message.to_string())).take(6).collect();
    let logger = "logger=\"kubernetes.io/kube-apiserver-client-kubelet\"";
    let want = [
        (ms(0), "\"Kubelet version\" kubeletVersion=\"v1.34.1\"".to_string()),
        (ms(0), "\"Client rotation is on, will bootstrap in background\"".into()),
        (
            ms(0),
            "/etc/kubernetes/kubelet.conf written (user default-auth, client-certificate \
             /var/lib/kubelet/pki/kubelet-client-current.pem)"
                .into(),
        ),
        (ms(0), "\"Starting client certificate rotation\"".into()),
        (ms(0), format!("\"Certificate rotation is enabled\" {logger}")),
        (ms(0), format!("\"Rotating certificates\" {logger}")),
    ];
    assert_eq!(lines, want);
    let cert = timeline.at(ms(4)).machines()[0].client_certificate.clone().expect("the certificate");
    assert_eq!(cert.file, "kubelet-client-2026-03-02-09-00-00.pem");
    assert_eq!(cert.csr, name);
    let registered = log.requests.iter().find(|r| &*r.path == "/api/v1/nodes").expect("registered");
    assert_eq!(registered.actor, kubelet());
    assert!(registered.t > ms(3), "after the certificate");
}

/// At the deadline (70 % to 90 % of the certificate's life, backdating included) the kubelet
/// asks again as `system:node:node-1`; csrapproving asks `selfnodeclient` and approves with its
/// own message, csrsigning signs, and the kubelet writes a new file and moves the symlink.
#[test]
fn a_rotated_client_certificate_is_renewed_through_selfnodeclient() {
    let settings =
        [("kubelet", "rotateCertificates", "true"), ("kube-controller-manager", "cluster-signing-duration", "10m")];
    let end = SimTime::from_secs(12 * 60);
    let timeline = bootstrap_timeline(&settings, end);
    let log = timeline.log();
    let csrs = client_csrs(&timeline, end);
    assert_eq!(csrs.len(), 2, "the bootstrap's request and one renewal");
    let (first, renewal) = (&csrs[0], &csrs[1]);
    for csr in &csrs {
        assert!(csr.metadata.name.starts_with("csr-") && csr.metadata.name.len() == 9, "{}", csr.metadata.name);
        assert_eq!(csr.condition_text(), "Approved,Issued");
    }
    assert_eq!(renewal.spec.username, "system:node:node-1");
    assert_eq!(renewal.spec.groups, ["system:nodes", "system:authenticated"]);
    let approved = renewal.condition("Approved").expect("approved");
    assert_eq!((approved.status, approved.reason), ("True", "AutoApproved"));
    assert_eq!(approved.message, "Auto approving self kubelet client certificate after SubjectAccessReview.");
    let post = log
        .requests
        .iter()
        .filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"))
        .nth(1)
        .expect("the renewal's POST");
    assert_eq!(post.actor, kubelet(), "sent with the certificate it has");
    let sars: Vec<_> = log.requests.iter().filter(|r| r.path.ends_with("/subjectaccessreviews")).collect();
    assert_eq!(sars.len(), 2);
    let body = sars[1].body.as_ref().and_then(|b| b.json()).expect("a JSON body");
    assert_eq!(body["spec"]["resourceAttributes"]["subresource"], "selfnodeclient");
    assert_eq!(body["spec"]["user"], "system:node:node-1");
    assert_eq!(sars[1].t, post.t + Duration::from_millis(1));
    // The deadline: between 70 % and 90 % of the first certificate's life after its notBefore.
    let (not_before, not_after) = certificate_validity(&first.status.certificate).expect("a certificate");
    assert_eq!(not_after.0 - not_before.0, 15 * 60 * 1_000_000, "10 minutes, backdated 5 (not at its end)");
    let epoch = Config::default().epoch.0;
    let fraction = (epoch + post.t.as_micros() as i64 - not_before.0) as f64 / (not_after.0 - not_before.0) as f64;
    assert!((0.7..=0.9).contains(&fraction), "{fraction}");
    let waits: Vec<_> = log
        .lines
        .iter()
        .filter(|l| l.actor == kubelet() && l.message.starts_with("\"Waiting for next certificate rotation\""))
        .collect();
    assert!(waits[0].message.ends_with("logger=\"kubernetes.io/kube-apiserver-client-kubelet\""));
    let sleep =
        nodeline_sim::parse_go_duration(waits[0].message.split('"').nth(3).expect("sleep")).expect("a duration");
    assert_eq!(post.t, waits[0].t + sleep, "sent at the deadline");
    // The files: a second PEM, the symlink moved to it.
    let cert = timeline.at(end).machines()[0].client_certificate.clone().expect("the certificate");
    assert_eq!(cert.csr, renewal.metadata.name.to_string());
    assert_ne!(cert.file, "kubelet-client-2026-03-02-09-00-00.pem");
    assert!(cert.file.starts_with("kubelet-client-2026-03-02-09-0"), "{}", cert.file);
    let written: Vec<_> = log
        .lines
        .iter()
        .filter(|l| l.actor == kubelet() && l.message.contains("kubelet-client-current.pem points at it"))
        .collect();
    assert_eq!(written.len(), 2);
    assert!(written[1].message.contains(&cert.file), "{}", written[1].message);
}

/// A kubelet restarted with a certificate loads it and waits for its deadline: no request.
#[test]
fn a_restarted_kubelet_keeps_its_rotated_certificate_until_the_deadline() {
    let mut scenario = Chapter::Registration.scenario();
    scenario.chapter = None;
    scenario.machines[0].bootstrap = true;
    let mut config = Config::default();
    config.settings.set("kubelet", "rotateCertificates", "true").expect("a setting");
    let actions = nodeline_sim::parse_actions("kill-kubelet:node-1@30s,start-kubelet:node-1@40s").expect("actions");
    let mut timeline = Timeline::from_scenario(scenario, config, &actions);
    timeline.run_until(SimTime::from_secs(90));
    let log = timeline.log();
    let posts =
        log.requests.iter().filter(|r| r.method == Method::Post && r.path.ends_with("/certificatesigningrequests"));
    assert_eq!(posts.count(), 1);
    let loading = log
        .lines
        .iter()
        .find(|l| l.message.starts_with("\"Loading cert/key pair from a file\""))
        .expect("the restart loads its certificate");
    assert_eq!(loading.t, SimTime::from_secs(40));
}
