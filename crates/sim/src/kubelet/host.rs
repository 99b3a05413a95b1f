//! A machine's host: what exists outside Kubernetes. Its container runtime can be up or down, its
//! network to the API server can be cut, and its containers keep running whatever its kubelet
//! does. Only the machine's own kubelet reads it; the reader's actions change it through
//! [`super::Machine`].

use std::collections::BTreeMap;
use std::sync::{Arc, LazyLock};

use crate::apiserver::{Answer, ApiOp};
use crate::ctx::{Client, Ctx, Io, Reply, Sender};
use crate::machine::{Leak, MachineSpec, RunningContainer};
use crate::objects::{ContainerImage, NodeSystemInfo, Quantities, Text};
use crate::profile::Profile;
use crate::record::{Actor, Severity};
use crate::rng::Rng;
use crate::shared::Shared;
use crate::time::{SimTime, format_go_duration};

/// The query the heartbeat client adds to every request, `timeout=` and the client's timeout as
/// Go prints it (`timeout=10s` by default). Requests keep their query as a `&'static str`, so
/// each other timeout's is made once and kept: a handful at most, one for each setting used.
fn heartbeat_query(timeout: std::time::Duration) -> &'static str {
    if timeout == crate::settings::HEARTBEAT_TIMEOUT {
        return "timeout=10s";
    }
    static QUERIES: std::sync::Mutex<Vec<(std::time::Duration, &'static str)>> = std::sync::Mutex::new(Vec::new());
    let mut queries = QUERIES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some((_, q)) = queries.iter().find(|(t, _)| *t == timeout) {
        return q;
    }
    let query: &'static str = Box::leak(format!("timeout={}", format_go_duration(timeout)).into_boxed_str());
    queries.push((timeout, query));
    query
}

/// One machine, outside Kubernetes.
#[derive(Clone, Debug)]
pub(crate) struct Host {
    pub(crate) name: Text,
    /// The actor name of the machine's kubelet, shared by every request it sends.
    pub(crate) actor: Actor,
    pub(crate) hostname: Text,
    pub(crate) ip: Text,
    pub(crate) info: Arc<NodeSystemInfo>,
    pub(crate) capacity: Quantities,
    pub(crate) allocatable: Quantities,
    /// Images on the machine, largest first (the order the kubelet reports them in).
    pub(crate) images: Arc<Vec<ContainerImage>>,
    pub(crate) runtime_up: bool,
    /// When the runtime last went down (for PLEG's "last seen active").
    pub(crate) runtime_down_since: Option<SimTime>,
    pub(crate) cni_ready: bool,
    pub(crate) network_cut: bool,
    /// When the network was cut.
    pub(crate) network_cut_since: Option<SimTime>,
    pub(crate) containers: Shared<Vec<RunningContainer>>,
    /// The containers that leak memory (the memory model, `crate::memory`).
    pub(crate) leaks: Shared<Vec<Leak>>,
    /// The next pod IP's last octet.
    pub(crate) next_pod_ip: u32,
    /// When the image pull in progress (pulls are serialized) finishes.
    pub(crate) pulls_busy_until: Option<SimTime>,
    /// The labels the kubelet registers its Node with (`--node-labels`).
    pub(crate) node_labels: Shared<Vec<(String, String)>>,
    /// The kubelet's graceful node shutdown settings (`shutdownGracePeriod`,
    /// `shutdownGracePeriodCriticalPods`).
    pub(crate) shutdown_periods: (std::time::Duration, std::time::Duration),
    /// The machine is off.
    pub(crate) powered_off: bool,
    /// The machine started with only a bootstrap kubeconfig.
    pub(crate) bootstrap: bool,
    /// The client certificate the bootstrap wrote.
    pub(crate) client_certificate: Option<Arc<crate::machine::ClientCertificate>>,
    /// `serverTLSBootstrap`: the kubelet asks for a serving certificate.
    pub(crate) server_tls_bootstrap: bool,
    /// The serving certificate, once issued.
    pub(crate) serving_certificate: Option<Arc<crate::machine::ClientCertificate>>,
    /// How many serving keys the certificate manager has made (each request has a new one).
    pub(crate) serving_key: u32,
    /// Which private key `kubelet-client.key.tmp` holds (kept across the kubelet's restarts
    /// until the bootstrap is done, so its CSR keeps its name).
    pub(crate) bootstrap_key: u32,
    /// Whether the visible state may have changed since it was last recorded.
    pub(crate) touched: bool,
}

/// Every machine's `status.capacity`: the same for all, so one map for a fleet (two maps of six
/// strings were 2,000 maps in a fleet of 1,000).
static CAPACITY: LazyLock<Quantities> = LazyLock::new(|| {
    let capacity = [
        ("cpu", "4"),
        ("ephemeral-storage", "102626232Ki"),
        ("hugepages-1Gi", "0"),
        ("hugepages-2Mi", "0"),
        ("memory", "16374584Ki"),
        ("pods", "110"),
    ];
    Arc::new(capacity.into_iter().map(|(k, v)| (k.to_string(), v.to_string())).collect())
});

/// Every machine's `status.allocatable`: its capacity less the default hard eviction thresholds
/// (`memory.available<100Mi`, `nodefs.available<10%`).
static ALLOCATABLE: LazyLock<Quantities> = LazyLock::new(|| {
    let mut allocatable = BTreeMap::clone(&CAPACITY);
    allocatable.insert("memory".into(), "16272184Ki".into());
    allocatable.insert("ephemeral-storage".into(), "94580335412".into());
    Arc::new(allocatable)
});

/// The images every machine has before any Pod runs, with the repo digests containerd reports
/// (`docs/kubernetes-notes.md` §9.8).
/// [`base_images`], one list for every machine of a profile.
fn shared_base_images(profile: Profile) -> Arc<Vec<ContainerImage>> {
    static V1_34: LazyLock<Arc<Vec<ContainerImage>>> = LazyLock::new(|| Arc::new(base_images(Profile::V1_34)));
    static V1_31: LazyLock<Arc<Vec<ContainerImage>>> = LazyLock::new(|| Arc::new(base_images(Profile::V1_31)));
    match profile {
        Profile::V1_34 => V1_34.clone(),
        Profile::V1_31 => V1_31.clone(),
    }
}

fn base_images(profile: Profile) -> Vec<ContainerImage> {
    let (proxy_digest, pause_digest, pause_tag) = match profile {
        Profile::V1_34 => (
            "913cc83ca0b5588a81d86ce8eedeb3ed1e9c1326e81852a1ea4f622b74ff749a",
            "278fb9dbcca9518083ad1e11276933a2e96f23de604a3a08cc3c80002767d24c",
            "3.10.1",
        ),
        // No pinned digest of kube-proxy v1.31.6 was found: this one is illustrative (the first
        // 64 hex digits of SHA-256 of "registry.k8s.io/kube-proxy:v1.31.6"). pause 3.10's is real.
        Profile::V1_31 => (
            "3f96712e4f63f568de4180532c42153447ab2703216b7b541a9345e3cb4a9379",
            "ee6521f290b2168b6e0935a181d4cff9be1ac3f505666ef0e3c98fae8199917a",
            "3.10",
        ),
    };
    vec![
        ContainerImage {
            names: vec![
                format!("registry.k8s.io/kube-proxy@sha256:{proxy_digest}"),
                format!("registry.k8s.io/kube-proxy:{}", profile.kubelet_version()),
            ],
            size_bytes: 30_934_120,
        },
        ContainerImage {
            names: vec![
                format!("registry.k8s.io/pause@sha256:{pause_digest}"),
                format!("registry.k8s.io/pause:{pause_tag}"),
            ],
            size_bytes: 320_448,
        },
    ]
}

impl Host {
    /// Builds machine number `index` (0-based) from its spec.
    pub(crate) fn new(spec: &MachineSpec, index: u32, profile: Profile, rng: &mut Rng) -> Host {
        let info = NodeSystemInfo {
            machine_id: rng.hex(32),
            system_uuid: rng.uuid(),
            boot_id: rng.uuid(),
            kernel_version: "6.8.0-85-generic".into(),
            os_image: "Ubuntu 24.04.3 LTS".into(),
            container_runtime_version: profile.container_runtime_version().into(),
            kubelet_version: profile.kubelet_version().into(),
            kube_proxy_version: profile.kube_proxy_version().into(),
            operating_system: "linux".into(),
            architecture: "amd64".into(),
        };
        Host {
            name: spec.name.as_str().into(),
            actor: Actor::Kubelet(spec.name.as_str().into()),
            hostname: spec.hostname.as_str().into(),
            ip: format!("10.0.0.{}", 11 + index).into(),
            info: Arc::new(info),
            capacity: CAPACITY.clone(),
            allocatable: ALLOCATABLE.clone(),
            images: shared_base_images(profile),
            runtime_up: true,
            runtime_down_since: None,
            cni_ready: spec.cni_ready_after.is_none(),
            network_cut: false,
            network_cut_since: None,
            containers: Shared::default(),
            leaks: Shared::default(),
            next_pod_ip: 2,
            pulls_busy_until: None,
            node_labels: spec.labels.clone().into(),
            shutdown_periods: (spec.shutdown_grace_period, spec.shutdown_grace_period_critical_pods),
            powered_off: false,
            bootstrap: spec.bootstrap,
            client_certificate: None,
            bootstrap_key: 0,
            server_tls_bootstrap: spec.server_tls_bootstrap,
            serving_certificate: None,
            serving_key: 0,
            touched: true,
        }
    }

    /// Marks the visible state as possibly changed.
    pub(crate) fn touch(&mut self) {
        self.touched = true;
    }

    /// How the kubelet's requests leave this machine, through `client`.
    fn sender(&self, client: Client) -> Sender<'_> {
        Sender { hostname: &self.hostname, network_cut: self.network_cut, client, bootstrap: None }
    }

    /// Sends a request as this machine's kubelet with its bootstrap kubeconfig (the bootstrap
    /// token's identity), with a query.
    pub(crate) fn call_bootstrap<T>(&self, ctx: &mut Ctx<'_, T>, op: ApiOp, query: &'static str) -> Reply {
        let sender = Sender { bootstrap: Some(crate::machine::BOOTSTRAP_TOKEN_ID), ..self.sender(Client::Main) };
        ctx.call_with(Actor::KubeletBootstrap(self.name.as_str().into()), Some(sender), op, query)
    }

    /// Sends a request as this machine's kubelet, through its main client.
    pub(crate) fn call<T>(&self, ctx: &mut Ctx<'_, T>, op: ApiOp) -> Reply {
        ctx.call(self.actor.clone(), Some(self.sender(Client::Main)), op)
    }

    /// Sends a request through the main client with a query (`resourceVersion=0`: answered from
    /// the API server's watch cache).
    pub(crate) fn call_with_query<T>(&self, ctx: &mut Ctx<'_, T>, op: ApiOp, query: &'static str) -> Reply {
        ctx.call_with(self.actor.clone(), Some(self.sender(Client::Main)), op, query)
    }

    /// Sends a request through the kubelet's heartbeat client, which adds `timeout=10s` (its timeout).
    pub(crate) fn call_heartbeat<T>(&self, ctx: &mut Ctx<'_, T>, op: ApiOp) -> Reply {
        let timeout = ctx.settings.heartbeat_timeout();
        ctx.call_with(self.actor.clone(), Some(self.sender(Client::Heartbeat(timeout))), op, heartbeat_query(timeout))
    }

    /// [`Host::call_heartbeat`], with the answer as the API server gave it (a renewal's compactly).
    #[allow(clippy::result_large_err)]
    pub(crate) fn send_heartbeat<T>(&self, ctx: &mut Ctx<'_, T>, op: ApiOp) -> Result<Answer, Reply> {
        let timeout = ctx.settings.heartbeat_timeout();
        ctx.send(self.actor.clone(), Some(self.sender(Client::Heartbeat(timeout))), op, heartbeat_query(timeout))
    }

    /// Writes a line to the kubelet's journal. The kubelet's lines about failures are its
    /// `klog.ErrorS` calls (severity `E`); the others are `klog.InfoS`.
    pub(crate) fn log<T>(&self, ctx: &mut Ctx<'_, T>, message: String) {
        const ERRORS: [&str; 7] = [
            "\"Error",
            "\"Failed",
            "\"failed",
            "\"Unable",
            "\"Container runtime sanity check failed",
            "\"command failed",
            "\"Eviction manager: cannot evict",
        ];
        // (`"failed to update lease using latest lease, fallback to ensure lease"` is an `Info`
        // call: the Lease controller falls back to its slow path, nothing has failed yet.)
        // (The eviction manager's `"Failed to admit pod to node"` is an `InfoS` too.)
        let info = message.starts_with("\"failed to update lease using latest lease")
            || message.starts_with("\"Failed to admit pod to node");
        let severity =
            if !info && ERRORS.iter().any(|p| message.starts_with(p)) { Severity::Error } else { Severity::Info };
        ctx.log_line_at(self.actor.clone(), severity, message);
    }

    /// Adds a pulled image, keeping the list largest first (shared with an equal list another
    /// machine made, [`Io::share_images`]).
    pub(crate) fn add_image(&mut self, io: &mut Io<'_>, image: ContainerImage) {
        let images = Arc::make_mut(&mut self.images);
        let at = images.partition_point(|i| i.size_bytes >= image.size_bytes);
        images.insert(at, image);
        self.images = io.share_images(self.images.clone());
    }

    /// Whether the image is already on the machine.
    pub(crate) fn has_image(&self, image: &str) -> bool {
        self.images.iter().any(|i| i.names.iter().any(|n| names_image(n, image)))
    }
}

/// Whether an image's name `name` is `image`, or `image` under a registry's or repository's
/// prefix (`docker.io/library/nginx:1.27` names `nginx:1.27`, `ginx:1.27` it does not).
fn names_image(name: &str, image: &str) -> bool {
    name == image || name.strip_suffix(image).is_some_and(|head| head.ends_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_is_named_whole_or_under_a_prefix() {
        let name = "docker.io/library/nginx:1.27";
        assert!(names_image(name, name));
        assert!(names_image(name, "nginx:1.27"));
        assert!(names_image(name, "library/nginx:1.27"));
        assert!(!names_image(name, "ginx:1.27"));
        assert!(!names_image(name, "other/nginx:1.27"));
        assert!(!names_image(name, "nginx:1.2"));
    }

    /// Whether `hex` holds a run of eight digits each one more than the last (`89abcdef`), read
    /// one digit at a time or every other digit (`a6b7c8d9e0f1…`).
    fn counting_run(hex: &str) -> bool {
        let digits: Vec<u32> = hex.chars().filter_map(|c| c.to_digit(16)).collect();
        let counts = |step: usize, from: usize| {
            let seq: Vec<u32> = digits.iter().skip(from).step_by(step).copied().collect();
            seq.windows(8).any(|w| w.windows(2).all(|p| p[1] == (p[0] + 1) % 16))
        };
        counts(1, 0) || counts(2, 0) || counts(2, 1)
    }

    /// Every machine starts with one shared list of images, and machines that pull the same
    /// image end with one shared list again; the same texts, capacity and allocatable for all.
    #[test]
    fn machines_share_their_image_lists_and_resources() {
        let mut probe = crate::testkit::Probe::new();
        let mut a = Host::new(&MachineSpec::new("node-1"), 0, Profile::V1_34, probe.rng());
        let mut b = Host::new(&MachineSpec::new("node-2"), 1, Profile::V1_34, probe.rng());
        assert!(Arc::ptr_eq(&a.images, &b.images) && Arc::ptr_eq(&a.capacity, &b.capacity));
        assert!(Arc::ptr_eq(&a.allocatable, &b.allocatable));
        assert_eq!(a.allocatable.get("memory").map(String::as_str), Some("16272184Ki"));
        let nginx = || ContainerImage { names: vec!["docker.io/library/nginx:1.27.5".into()], size_bytes: 72_195_292 };
        probe.input::<()>(|ctx| {
            a.add_image(ctx, nginx());
            b.add_image(ctx, nginx());
        });
        assert!(a.has_image("nginx:1.27.5") && b.has_image("nginx:1.27.5"));
        assert_eq!(a.images[0].size_bytes, 72_195_292, "largest first");
        assert!(Arc::ptr_eq(&a.images, &b.images), "one list after the same pull");
        let c = Host::new(&MachineSpec::new("node-3"), 2, Profile::V1_34, probe.rng());
        assert!(!c.has_image("nginx:1.27.5"), "a machine that pulled nothing keeps the base list");
    }

    #[test]
    fn image_digests_look_like_digests() {
        // The digest this replaced, and a plain run.
        assert!(counting_run("9e876f24a8b6e2a7c1f3e4d5a6b7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5"));
        assert!(counting_run("0123456789"));
        for profile in [Profile::V1_34, Profile::V1_31] {
            let images = base_images(profile);
            for name in images.iter().flat_map(|i| &i.names) {
                if let Some((_, digest)) = name.split_once("@sha256:") {
                    assert_eq!(digest.len(), 64, "{name}");
                    assert!(!counting_run(digest), "{name} has a counting run");
                }
            }
            let tag = format!("registry.k8s.io/kube-proxy:{}", profile.kubelet_version());
            assert!(images.iter().any(|i| i.names.contains(&tag)), "{profile:?}: {tag}");
        }
        assert!(
            base_images(Profile::V1_31)
                .iter()
                .any(|i| i.names.iter().any(|n| n == "registry.k8s.io/kube-proxy:v1.31.6"))
        );
        assert!(!counting_run(crate::workload::WORKLOAD_IMAGE_DIGEST));
    }
}
