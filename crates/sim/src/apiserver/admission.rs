//! Admission: NodeRestriction's rule on the labels a kubelet may set on its own Node, and for a
//! new Pod the ServiceAccount plugin's token volume and DefaultTolerationSeconds' tolerations.

use super::{TAINT_NOT_READY, TAINT_UNREACHABLE};
use crate::objects::{Pod, ProjectedVolume, Toleration, Volume, VolumeMount};
use crate::rng::Rng;
use crate::shared::Shared;

/// Whether a kubelet may set this label on its own Node (`IsKubeletLabel` plus the
/// `node-restriction.kubernetes.io/` ban).
pub fn kubelet_may_set_label(key: &str) -> bool {
    const EXACT: [&str; 11] = [
        "kubernetes.io/hostname",
        "kubernetes.io/os",
        "kubernetes.io/arch",
        "beta.kubernetes.io/os",
        "beta.kubernetes.io/arch",
        "beta.kubernetes.io/instance-type",
        "node.kubernetes.io/instance-type",
        "topology.kubernetes.io/zone",
        "topology.kubernetes.io/region",
        "failure-domain.beta.kubernetes.io/zone",
        "failure-domain.beta.kubernetes.io/region",
    ];
    let Some((prefix, _)) = key.split_once('/') else { return true };
    if prefix == "node-restriction.kubernetes.io" || prefix.ends_with(".node-restriction.kubernetes.io") {
        return false;
    }
    if EXACT.contains(&key) {
        return true;
    }
    let under = |ns: &str| prefix == ns || prefix.ends_with(&format!(".{ns}"));
    if under("kubelet.kubernetes.io") || under("node.kubernetes.io") {
        return true;
    }
    !(under("kubernetes.io") || under("k8s.io"))
}

pub(super) fn forbidden_labels<'a>(labels: impl Iterator<Item = &'a String>) -> Vec<&'a str> {
    let mut bad: Vec<&str> = labels.map(String::as_str).filter(|k| !kubelet_may_set_label(k)).collect();
    bad.sort_unstable();
    bad
}

/// The projected service-account volume's sources, the same in every Pod: one copy shared by all
/// (the JSON documents are ~8 KB of allocations each, 25 MB over the 1,000-node hour's Pods).
static SERVICE_ACCOUNT_SOURCES: std::sync::LazyLock<Shared<Vec<serde_json::Value>>> = std::sync::LazyLock::new(|| {
    Shared::new(vec![
        serde_json::json!({ "serviceAccountToken": { "expirationSeconds": 3607, "path": "token" } }),
        serde_json::json!({ "configMap": { "name": "kube-root-ca.crt", "items": [{ "key": "ca.crt", "path": "ca.crt" }] } }),
        serde_json::json!({ "downwardAPI": { "items": [{ "path": "namespace", "fieldRef": { "apiVersion": "v1", "fieldPath": "metadata.namespace" } }] } }),
    ])
});

/// DefaultTolerationSeconds' two tolerations, as a Pod without tolerations of its own gets them:
/// one list shared by every such Pod (a fleet's thousands of Pods held a 448-byte list each),
/// with kube-apiserver's `--default-not-ready-toleration-seconds` and
/// `--default-unreachable-toleration-seconds`.
#[derive(Clone, Debug)]
pub(crate) struct DefaultTolerations {
    seconds: [i64; 2],
    list: Shared<Vec<Toleration>>,
}

impl DefaultTolerations {
    pub(crate) fn new(not_ready: i64, unreachable: i64) -> DefaultTolerations {
        let seconds = [not_ready, unreachable];
        let mut list = Shared::default();
        default_tolerations(&mut list, seconds);
        DefaultTolerations { seconds, list }
    }
}

impl Default for DefaultTolerations {
    /// kube-apiserver's defaults, 300 s each.
    fn default() -> DefaultTolerations {
        let s = crate::settings::Settings::default();
        DefaultTolerations::new(s.not_ready_toleration_seconds, s.unreachable_toleration_seconds)
    }
}

/// DefaultTolerationSeconds: tolerates the not-ready and unreachable NoExecute taints (for 300 s
/// by default), unless the Pod tolerates them already.
fn default_tolerations(tolerations: &mut Shared<Vec<Toleration>>, seconds: [i64; 2]) {
    for (key, seconds) in [TAINT_NOT_READY, TAINT_UNREACHABLE].into_iter().zip(seconds) {
        let tolerated = tolerations
            .iter()
            .any(|t| (t.key == key || t.key.is_empty()) && (t.effect == "NoExecute" || t.effect.is_empty()));
        if !tolerated {
            tolerations.push(Toleration {
                key: key.into(),
                operator: "Exists".into(),
                value: "".into(),
                effect: "NoExecute".into(),
                toleration_seconds: Some(seconds),
            });
        }
    }
}

/// Admission for new Pods: the ServiceAccount plugin's token volume, and DefaultTolerationSeconds.
pub(super) fn admit_pod(pod: &mut Pod, rng: &mut Rng, defaults: &DefaultTolerations) {
    if pod.spec.tolerations.is_empty() {
        pod.spec.tolerations = defaults.list.clone();
    } else {
        default_tolerations(&mut pod.spec.tolerations, defaults.seconds);
    }
    // ServiceAccount admission: mount the projected API token.
    if pod.spec.service_account_name.is_empty() {
        pod.spec.service_account_name = "default".into();
        pod.spec.service_account = "default".into();
    }
    // (Simplified: the real plugin adds it unless a volume is already named `kube-api-access-…`;
    // here a Pod created with an `emptyDir` gets none. A StatefulSet Pod's claim does not count.)
    if pod.spec.volumes.iter().all(|v| v.persistent_volume_claim.is_some()) {
        let volume = format!("kube-api-access-{}", rng.name_suffix(5));
        // (Exactly as long as needed: the Pod's versions keep these lists for the whole log, and
        // a first push on an empty list makes room for four.)
        pod.spec.volumes.reserve_exact(1);
        pod.spec.volumes.push(Volume {
            name: volume.clone(),
            empty_dir: None,
            persistent_volume_claim: None,
            projected: Some(ProjectedVolume { sources: SERVICE_ACCOUNT_SOURCES.clone(), default_mode: 420 }),
        });
        for c in &mut pod.spec.containers {
            c.volume_mounts.reserve_exact(1);
            c.volume_mounts.push(VolumeMount {
                name: volume.clone(),
                read_only: true,
                mount_path: "/var/run/secrets/kubernetes.io/serviceaccount".into(),
            });
        }
    }
}
