//! Version profiles: the defaults and object shapes that differ between Kubernetes releases.

use std::fmt;
use std::time::Duration;

use serde::Serialize;

/// Which Kubernetes release the simulated cluster runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub enum Profile {
    /// Kubernetes 1.34 (the default): 50 s node-monitor grace period.
    #[default]
    #[serde(rename = "1.34")]
    V1_34,
    /// Kubernetes 1.30–1.31: 40 s node-monitor grace period.
    #[serde(rename = "1.31")]
    V1_31,
}

impl Profile {
    /// Both profiles.
    pub const ALL: [Profile; 2] = [Profile::V1_34, Profile::V1_31];

    /// The profile for a version string such as `1.34` or `1.31`.
    pub fn parse(s: &str) -> Option<Profile> {
        match s.trim().trim_start_matches('v') {
            "1.34" => Some(Profile::V1_34),
            "1.31" | "1.30" => Some(Profile::V1_31),
            _ => None,
        }
    }

    /// The short version, as accepted by [`Profile::parse`].
    pub fn as_str(self) -> &'static str {
        match self {
            Profile::V1_34 => "1.34",
            Profile::V1_31 => "1.31",
        }
    }

    /// `--node-monitor-grace-period`: 50 s since 1.32, 40 s before (PR #126287).
    pub fn node_monitor_grace_period(self) -> Duration {
        match self {
            Profile::V1_34 => Duration::from_secs(50),
            Profile::V1_31 => Duration::from_secs(40),
        }
    }

    /// The kubelet's `nodeInfo.kubeletVersion`.
    pub fn kubelet_version(self) -> &'static str {
        match self {
            Profile::V1_34 => "v1.34.1",
            Profile::V1_31 => "v1.31.6",
        }
    }

    /// `nodeInfo.kubeProxyVersion`: empty from 1.33 (`DisableNodeKubeProxyVersion`), the kubelet's
    /// own version in 1.31.1+.
    pub fn kube_proxy_version(self) -> &'static str {
        match self {
            Profile::V1_34 => "",
            Profile::V1_31 => "v1.31.6",
        }
    }

    /// `nodeInfo.containerRuntimeVersion` of the machines in this profile's clusters.
    pub fn container_runtime_version(self) -> &'static str {
        match self {
            Profile::V1_34 => "containerd://2.1.4",
            Profile::V1_31 => "containerd://1.7.27",
        }
    }

    /// Whether the runtime reports handlers and features (`status.runtimeHandlers`,
    /// `status.features`): containerd 2.x does, 1.7 does not.
    pub fn runtime_reports_handlers(self) -> bool {
        matches!(self, Profile::V1_34)
    }

    /// The kubelet's `Created` event message: 1.34 puts a colon after "container" (1.32+),
    /// 1.31 does not.
    pub fn created_container_message(self, container: &str) -> String {
        match self {
            Profile::V1_34 => format!("Created container: {container}"),
            Profile::V1_31 => format!("Created container {container}"),
        }
    }

    /// Whether every Lease renewal re-asserts `leaseDurationSeconds` (1.34, issue #102744).
    pub fn lease_duration_reasserted(self) -> bool {
        matches!(self, Profile::V1_34)
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
