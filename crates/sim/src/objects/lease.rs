//! `coordination.k8s.io/v1` `Lease`.

use serde::Serialize;

use super::meta::{MicroTime, ObjectMeta};

/// A node's heartbeat Lease in `kube-node-lease`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lease {
    pub kind: &'static str,
    #[serde(rename = "apiVersion")]
    pub api_version: &'static str,
    pub metadata: ObjectMeta,
    pub spec: LeaseSpec,
}

/// `coordination.k8s.io/v1` `LeaseSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LeaseSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub holder_identity: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_duration_seconds: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub acquire_time: Option<MicroTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renew_time: Option<MicroTime>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lease_transitions: Option<i32>,
}

impl Lease {
    /// An empty Lease.
    pub fn new(namespace: &str, name: &str) -> Lease {
        Lease {
            kind: "Lease",
            api_version: "coordination.k8s.io/v1",
            metadata: ObjectMeta { name: name.into(), namespace: namespace.into(), ..ObjectMeta::default() },
            spec: LeaseSpec::default(),
        }
    }
}
