//! English: the questions of question mode (`crate::quiz`), by id. `{0}`, `{1}`, … are the facts
//! each question's derivation finds in the timeline.

use super::QuestionText;

pub(super) fn question(id: &str) -> Option<&'static QuestionText> {
    Some(match id {
        "registration-first-ready" => &QuestionText {
            prompt: "The kubelet on node-1 is about to POST its Node. The runtime's network is not ready yet (`NetworkReady=false`). What will the new Node's `Ready` condition say?",
            options: &["`True`", "`False`", "`Unknown`"],
            why: "The kubelet reports what it sees: the runtime's network is not ready, so its very first status already says `Ready` `False`, reason `KubeletNotReady`. `Unknown` is written only by the node lifecycle controller, after `--node-monitor-grace-period` without a heartbeat; a new Node never starts there.",
        },
        "registration-pods-order" => &QuestionText {
            prompt: "An ordinary Pod is created now, and a Pod that tolerates `node.kubernetes.io/not-ready` a few seconds later, while node-1 is not Ready yet. Put these in the order they happen.",
            options: &[
                "node-1 becomes Ready (`NodeReady`)",
                "The tolerating Pod's container starts",
                "The tolerating Pod is bound to node-1",
                "The ordinary Pod is bound to node-1",
            ],
            why: "The scheduler reads taints, not conditions: the tolerating Pod is bound at once, the ordinary one only when the not-ready taint comes off after `NodeReady`. Bound is not running: the tolerating Pod waits for the network, and the kubelet retries a Pod whose sync failed only every 10 s, so the ordinary Pod, started as soon as it was bound, runs first.",
        },
        "registration-report-frequency" => &QuestionText {
            prompt: "Nothing changes on node-1 from now on. How many seconds after its last status PATCH will the kubelet send the next one?",
            options: &[],
            why: "The kubelet recomputes its status every `nodeStatusUpdateFrequency` ({2} s), but PATCHes a status that did not change only once `nodeStatusReportFrequency` ({1} s) has passed since its last report: {0} s here. The Lease, renewed every 10 s, is the heartbeat the control plane watches; this PATCH is the slow one.",
        },
        "node-failure-ready" => &QuestionText {
            prompt: "The kubelet on node-1 is about to stop. Once the control plane notices, what will node-1's `Ready` condition say?",
            options: &["`True`", "`False`", "`Unknown`"],
            why: "A stopped kubelet reports nothing, so nobody is there to write `False`. The node lifecycle controller sees the Lease's `renewTime` stop moving, and after `--node-monitor-grace-period` ({0} s in Kubernetes {1}) it sets `Ready` to `Unknown`, reason `NodeStatusUnknown`: it cannot tell whether the node is healthy.",
        },
        "node-failure-unknown-after" => &QuestionText {
            prompt: "The kubelet on node-1 has just stopped. How many seconds after its last Lease renewal will the controller write `Unknown`?",
            options: &[],
            why: "The controller counts `--node-monitor-grace-period` ({1} s in Kubernetes {2}) from the pass at which it saw the last renewal, and it looks only every `--node-monitor-period` ({3} s), so it writes `Unknown` at its first pass after the grace period: {0} s after the renewal here. The Lease's own `leaseDurationSeconds` plays no part.",
        },
        "node-failure-order" => &QuestionText {
            prompt: "node-1's kubelet has been silent for almost the whole grace period. Put these in the order they happen.",
            options: &[
                "The Pod on node-1 is deleted (`TaintManagerEviction`)",
                "node-1 gets the `node.kubernetes.io/unreachable:NoExecute` taint",
                "The replacement Pod runs",
                "`NodeNotReady`",
            ],
            why: "`NodeNotReady` comes with the `Unknown` write, and the NoExecute taint at the controller's next pass. The taint eviction controller deletes the Pod only when its `tolerationSeconds` for that taint run out, and only then does the ReplicaSet create a replacement for the scheduler to place.",
        },
        "node-failure-toleration" => &QuestionText {
            prompt: "node-1 is about to get the `node.kubernetes.io/unreachable:NoExecute` taint. How many seconds later will its Pod be marked for deletion?",
            options: &[],
            why: "At admission, DefaultTolerationSeconds gave the Pod a toleration of the unreachable taint with `tolerationSeconds` {1}. The taint eviction controller lets the Pod stay that long after the taint was added, then deletes it: {0} s here. A Pod that sets its own `tolerationSeconds` gets its own delay.",
        },
        "node-failure-replacement" => &QuestionText {
            prompt: "The Pod on node-1 is about to be deleted, and its ReplicaSet will create a replacement. Which node on the stage will the replacement be bound to?",
            options: &[],
            why: "The scheduler's TaintToleration filter rules out {1}: it carries `node.kubernetes.io/unreachable:NoSchedule`, which the new Pod does not tolerate. The replacement is bound to {0}.",
        },
        "kubelet-restart-post" => &QuestionText {
            prompt: "The kubelet on node-1 starts again at {0} and POSTs its Node, as it did when it first registered. What will the API server answer?",
            options: &["`201 Created`", "`409 AlreadyExists`", "`403 Forbidden`"],
            why: "`NotReady` never deletes a Node: the object is still there, so the POST gets `409 AlreadyExists`. With `--register-node` the kubelet then GETs the existing Node and adopts it, as its own.",
        },
        "kubelet-restart-pod-node" => &QuestionText {
            prompt: "The kubelet comes back before the Pod's toleration has run out. Once node-1 is Ready again, which node will the web Pod run on?",
            options: &[],
            why: "The Pod was never deleted: its deletion was only scheduled, `tolerationSeconds` after the NoExecute taint. When the controller removes the taint, the taint eviction controller cancels it, and the containers that kept running on {0} are reported Ready again. Nothing moved.",
        },
        "kubelet-restart-order" => &QuestionText {
            prompt: "The kubelet on node-1 has just started. Put these in the order they happen.",
            options: &[
                "`NodeReady`",
                "The pending deletion is cancelled",
                "The Lease is renewed",
                "The kubelet POSTs its Node",
            ],
            why: "The Lease loop starts at once and renews the Lease it still finds; registration POSTs the Node and adopts it after `409 AlreadyExists`; `NodeReady` follows when the runtime and PLEG checks pass. The deletion is cancelled only when the controller removes the NoExecute taint, at one of its passes every `--node-monitor-period` ({0} s).",
        },
        "zone-outage-taint-interval" => &QuestionText {
            prompt: "The first node of eu-west-1b has just been tainted `NoExecute`, and more of the zone's nodes are Unknown. How many seconds until the next one is tainted?",
            options: &[],
            why: "Each zone has a tainting queue of its own, drained by a token bucket at `--node-eviction-rate` (0.1 node a second) while the zone is `Normal`: the first node goes at once, the next one {0} later. A flapping network cannot empty a zone in one pass.",
        },
        "zone-outage-partial" => &QuestionText {
            prompt: "More of eu-west-1b's nodes have just failed: within a minute more than 55 % of the zone will be not Ready. What will the controller then do with the zone's tainting?",
            options: &["Go on at one node every 10 s", "Slow down to one node every 100 s", "Stop tainting the zone"],
            why: "Past `--unhealthy-zone-threshold` (55 %, and more than two nodes) the zone is `PartialDisruption`. Its rate becomes `--secondary-node-eviction-rate` (0.01 a second) if the zone has more than `--large-cluster-size-threshold` (50) nodes, and 0 if not; this zone has {0}. A half-dark zone is more likely cut off by the network than dead, so the controller does not empty it.",
        },
        "zone-outage-mark" => &QuestionText {
            prompt: "The rest of eu-west-1b has just lost the API server: no Node of the zone will renew its Lease again. How many seconds from now until the controller logs that the zone is `FullDisruption`?",
            options: &[],
            why: "The controller waits the grace period ({1} s), then its monitor pass marks each dark Node `Unknown`: its status, a status write for each of its Pods, the `unreachable:NoSchedule` taint and their Events all go through the controller's client, 20 requests a second after a burst of 30. The zone's state is counted only once the pass has checked every Node: {0} s after the cut here, and longer in a bigger fleet.",
        },
        "zone-outage-master" => &QuestionText {
            prompt: "The API server has just lost every kubelet: within a minute every zone will be fully disrupted. What happens to the `NoExecute` taints already on eu-west-1b's nodes?",
            options: &["They are removed", "They stay", "Every node gets one"],
            why: "When every zone is `FullDisruption` the controller enters master disruption mode: the likelier fault is the control plane's own network, so it removes the `NoExecute` taints (the `NoSchedule` ones stay) and cancels pending evictions. Nothing is evicted until a node is Ready again, and then every node's grace period starts afresh.",
        },
        "maintenance-evictions" => &QuestionText {
            prompt: "`kubectl drain node-1 --ignore-daemonsets` is about to evict node-1's two web Pods. How does it send the evictions?",
            options: &[
                "All at once: one Eviction POST per Pod, at the same moment",
                "One by one: the next Pod's Eviction only once the previous Pod is gone",
            ],
            why: "kubectl starts one goroutine per Pod and each POSTs its Eviction at once. It is the budget, not kubectl, that lets them through one at a time.",
        },
        "maintenance-retry" => &QuestionText {
            prompt: "The second eviction got `429 Too Many Requests` from the budget. How many seconds later will kubectl try that Pod again?",
            options: &[],
            why: "After a 429 kubectl prints the error with `(will retry after 5s)` and sleeps 5 s before POSTing the Eviction again: here {0}. It keeps doing so until the budget allows it or `--timeout` runs out.",
        },
        "maintenance-left" => &QuestionText {
            prompt: "When kubectl prints `node/node-1 drained`, what is still running on node-1?",
            options: &["Nothing", "The DaemonSet's Pod (node-agent)", "One of the web Pods"],
            why: "With `--ignore-daemonsets` drain leaves DaemonSet Pods alone: they tolerate `unschedulable` and their controller would only put them back. Every other Pod was evicted.",
        },
        "node-goes-away-phase" => &QuestionText {
            prompt: "node-1 is about to shut down gracefully, with `shutdownGracePeriod: 30s`. What phase will its web Pods end in?",
            options: &["`Running`", "`Failed`", "`Succeeded`"],
            why: "The shutdown manager kills each Pod with a status function that sets `phase: Failed` (unless the Pod had already succeeded), reason `Terminated` and a `DisruptionTarget` condition. It does not delete them: they stay in the API as Failed Pods, and their ReplicaSet replaces them.",
        },
        "node-goes-away-orphans" => &QuestionText {
            prompt: "node-3 has just been deleted with `kubectl delete node`, while Pods are still bound to it. How many seconds after the deletion will PodGC force-delete the first of them?",
            options: &[],
            why: "PodGC runs every 20 s (`gcCheckPeriod`). The first pass that sees Pods on a missing Node puts the name in quarantine for 40 s (`quarantineTime`); the first pass after that confirms with a GET that the Node is gone, marks the Pods Failed and deletes them: here {0}.",
        },
        "node-goes-away-db-node" => &QuestionText {
            prompt: "node-2 now carries `node.kubernetes.io/out-of-service`. Which node will the StatefulSet's `db-0` run on when it comes back?",
            options: &[],
            why: "PodGC force-deletes the terminating `db-0`, so the StatefulSet controller can create a Pod with that name again. The scheduler cannot use node-1 or node-2 (not Ready, tainted), so the new `db-0` is bound to {0}, and its volume is attached there once the old attachment is gone.",
        },
        _ => return None,
    })
}
