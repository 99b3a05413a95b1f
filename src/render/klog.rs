//! A log line as klog's text format prints it: `Lmmdd hh:mm:ss.uuuuuu threadid file] message`.
//!
//! The header is klog's (`I`/`W`/`E`, month and day, the wall clock to the microsecond, the
//! thread id right-aligned in 7 columns), then the source file of the call. klog also prints the
//! line number after the file; it changes with every release, so it is left out here
//! (docs/kubernetes-notes.md).

use crate::sim::record::LogLine;
use crate::sim::{Actor, WallTime};

/// The Go source file that logs `line` (the component's file for the message).
pub fn source_file(line: &LogLine) -> &'static str {
    let m = &*line.message;
    match &line.actor {
        Actor::NodeLifecycleController => "node_lifecycle_controller.go",
        Actor::TaintEvictionController => "taint_eviction.go",
        Actor::PodGcController => "gc_controller.go",
        Actor::AttachDetachController => "reconciler.go",
        Actor::CsrApprovingController | Actor::CsrSigningController => "certificate_controller.go",
        Actor::Kubelet(_)
            if m.starts_with("\"Using bootstrap kubeconfig")
                || m.starts_with("\"Waiting for client certificate")
                || m.starts_with("\"Failed to connect to apiserver")
                || m.starts_with("\"Error waiting for apiserver") =>
        {
            "bootstrap.go"
        }
        Actor::Kubelet(_) if m.starts_with("csr for this node") || m.starts_with("certificate signing request ") => {
            "csr.go"
        }
        Actor::Kubelet(_) if m.ends_with("logger=\"kubernetes.io/kubelet-serving\"") => "certificate_manager.go",
        Actor::Kubelet(_) => {
            if m.starts_with("\"Shutdown manager killing pod")
                || m.starts_with("\"Shutdown manager finished killing pod")
                || m.starts_with("\"Shutdown manager failed killing pod")
                || m.starts_with("\"Shutdown manager pod killing time out")
                || m.starts_with("\"Done waiting for all pods in group")
            {
                // The priority groups' `killPods` (1.33+: the `podManager`).
                "nodeshutdown_manager.go"
            } else if m.starts_with("\"Shutdown manager") {
                "nodeshutdown_manager_linux.go"
            } else if m.starts_with("\"Eviction manager") || m.starts_with("\"Failed to admit pod to node") {
                "eviction_manager.go"
            } else if m.contains("register") || m.contains("updating node status") || m.contains("update node status") {
                "kubelet_node_status.go"
            } else if m.contains("lease") {
                "controller.go"
            } else if m.contains("Kubelet version") || m.starts_with("\"command failed") {
                "server.go"
            } else if m.contains("Unable to write event") {
                "event.go"
            } else {
                "kubelet.go"
            }
        }
        _ => "controller.go",
    }
}

/// The line as klog prints it, for a log whose `T+00:00` is `epoch`. kubectl's lines are what it
/// prints on its stdout and stderr, with no klog header (it does not log them through klog).
pub fn klog_line(line: &LogLine, epoch: WallTime) -> String {
    if matches!(line.actor, Actor::Kubectl | Actor::KubectlStderr) {
        return line.message.to_string();
    }
    let wall = (epoch + line.t.since_start()).rfc3339_micros();
    // 2026-03-02T09:00:05.123456Z -> 0302 09:00:05.123456
    let (month, day, clock) = (&wall[5..7], &wall[8..10], &wall[11..26]);
    format!("{}{month}{day} {clock} {:>7} {}] {}", line.severity.letter(), 1, source_file(line), line.message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::record::Severity;
    use crate::sim::{DEFAULT_EPOCH, SimTime};

    #[test]
    fn prints_the_klog_header() {
        let line = LogLine {
            seq: 1,
            t: SimTime::from_millis(65_250),
            actor: Actor::NodeLifecycleController,
            severity: Severity::Info,
            message: "\"Controller detected that all Nodes are not-Ready. Entering master disruption mode\"".into(),
        };
        assert_eq!(
            klog_line(&line, DEFAULT_EPOCH),
            "I0302 09:01:05.250000       1 node_lifecycle_controller.go] \"Controller detected that all Nodes are \
             not-Ready. Entering master disruption mode\""
        );
        let error = LogLine { severity: Severity::Error, actor: Actor::Kubelet("node-1".into()), ..line.clone() };
        assert!(klog_line(&error, DEFAULT_EPOCH).starts_with("E0302 09:01:05.250000       1 kubelet.go] "));
    }

    /// Each line names the file that logs it; kubectl's output has no klog header.
    #[test]
    fn names_each_component_s_file() {
        let line = |actor: Actor, message: &str| LogLine {
            seq: 1,
            t: SimTime::from_millis(0),
            actor,
            severity: Severity::Info,
            message: message.into(),
        };
        let kubelet = || Actor::Kubelet("node-1".into());
        let cases = [
            (
                line(kubelet(), "\"Shutdown manager detected new shutdown event\" event=\"shutdown\""),
                "nodeshutdown_manager_linux.go",
            ),
            (line(kubelet(), "\"Shutdown manager processing shutdown event\""), "nodeshutdown_manager_linux.go"),
            (
                line(kubelet(), "\"Shutdown manager killing pod with gracePeriod\" pod=\"default/web\" gracePeriod=20"),
                "nodeshutdown_manager.go",
            ),
            (
                line(kubelet(), "\"Done waiting for all pods in group to terminate\" gracePeriod=20 priority=0"),
                "nodeshutdown_manager.go",
            ),
            (
                line(kubelet(), "\"Unable to update node status\" err=\"update node status exceeds retry count\""),
                "kubelet_node_status.go",
            ),
            (
                line(kubelet(), "\"Eviction manager: pods ranked for eviction\" pods=[\"default/web\"]"),
                "eviction_manager.go",
            ),
            (line(Actor::PodGcController, "\"PodGC is force deleting Pod\" pod=\"default/db-0\""), "gc_controller.go"),
            (line(Actor::AttachDetachController, "\"attacherDetacher.DetachVolume started\""), "reconciler.go"),
        ];
        for (l, file) in cases {
            assert_eq!(source_file(&l), file, "{}", l.message);
        }
        assert_eq!(klog_line(&line(Actor::Kubectl, "node/node-1 cordoned"), DEFAULT_EPOCH), "node/node-1 cordoned");
        assert_eq!(klog_line(&line(Actor::KubectlStderr, "error: x"), DEFAULT_EPOCH), "error: x");
    }
}
