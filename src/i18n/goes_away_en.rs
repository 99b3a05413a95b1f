//! Chapter 6, "A node goes away", in English.

use super::{ChapterText, StepText};

pub(super) static NODE_GOES_AWAY: ChapterText = ChapterText {
    title: "A node goes away",
    summary: "Three ways a node leaves: a graceful shutdown, kubectl delete node, and a machine that dies with a StatefulSet Pod on it.",
    steps: &[
        StepText {
            title: "Three nodes, two kinds of workload",
            body: &[
                "node-1 runs the Deployment's two `web` Pods; node-2 runs `db-0`, the one Pod of the StatefulSet `db`, with its volume attached to node-2 through a `VolumeAttachment`; node-3 joined last.",
                "node-1's [[kubelet|kubelet]] is configured with `shutdownGracePeriod: 30s` and `shutdownGracePeriodCriticalPods: 10s`. Both default to `0s`, which turns graceful node shutdown off.",
            ],
        },
        StepText {
            title: "node-1 shuts down gracefully",
            body: &[
                "`systemctl poweroff` on node-1. logind holds the shutdown for the kubelet's inhibitor lock and signals `PrepareForShutdown`. The kubelet records the node event `Shutdown` (`Shutdown manager detected shutdown event`) and syncs its status at once: [[conditions|Ready]] `False`, reason `KubeletNotReady`, message `node is shutting down`.",
                "From now on its admission rejects new Pods (`NodeShutdown`). The not-ready [[taints|taint]] follows from the Ready condition.",
            ],
        },
        StepText {
            title: "Pods killed, Failed, not deleted",
            body: &[
                "Ordinary Pods get `shutdownGracePeriod − shutdownGracePeriodCriticalPods` = 20 s; critical ones the last 10 s. Each Pod ends `phase: Failed`, reason `Terminated`, message `Pod was terminated in response to imminent node shutdown.`, with the condition `DisruptionTarget` (`TerminationByKubelet`).",
                "Nobody deletes them: they stay in the API, on a node that is gone. The [[replicaset|ReplicaSet]] counts Failed Pods as inactive and creates replacements at once. The kubelet releases the lock, the machine powers off, and `Unknown` follows as in chapter 2; 300 s after the `not-ready:NoExecute` taint (the `unreachable` taint that replaces it keeps that schedule) the taint eviction controller deletes these Failed Pods too, at once, since a finished Pod has no grace period.",
            ],
        },
        StepText {
            title: "kubectl delete node node-3",
            body: &[
                "An administrator deletes node-3 while its kubelet still runs: `DELETE /api/v1/nodes/node-3` with `propagationPolicy: Background`; kubectl prints `node \"node-3\" deleted`.",
                "The garbage collector deletes the node's [[lease|Lease]], whose `ownerReferences` point at the Node. The [[nlc|node lifecycle controller]] records `RemovingNode` at its next pass. The running kubelet now fails every status update: `error getting node \"node-3\": nodes \"node-3\" not found`, five tries, then `update node status exceeds retry count`. It never registers again by itself.",
            ],
        },
        StepText {
            title: "PodGC collects the orphans",
            body: &[
                "Every 20 s (`gcCheckPeriod`) PodGC lists Pods bound to Nodes that do not exist. A missing node name waits in quarantine for 40 s (`quarantineTime`), then a live `GET` confirms it is gone: 40 to 60 s after the deletion.",
                "Each orphan is patched to `Failed` with `DisruptionTarget` (`DeletionByPodGC`, `PodGC: node no longer exists`) and deleted with a grace period of 0. The kubelet on node-3 sees the Pod vanish and stops its container.",
            ],
        },
        StepText {
            title: "Only a restart registers a new Node",
            body: &[
                "The kubelet on node-3 is restarted. Registration runs again from the start: `POST /api/v1/nodes` answers `201`, a new Node with a new uid, a new `RegisteredNode`, and a new [[lease|Lease]].",
            ],
        },
        StepText {
            title: "node-2 loses power",
            body: &[
                "node-2 dies without a word: no shutdown manager runs, nothing tells the API server. Its Pods still say `Running`. After 50 s the [[nlc|node lifecycle controller]] marks the [[conditions|conditions]] `Unknown` and adds the unreachable [[taints|taints]].",
            ],
        },
        StepText {
            title: "db-0 stuck Terminating",
            body: &[
                "300 s after the NoExecute taint, the [[eviction|taint eviction controller]] deletes the Pods. With no kubelet to confirm, they stay `Terminating`.",
                "The ReplicaSet does not wait: a terminating Pod is inactive, so `web` already runs elsewhere. The StatefulSet does wait: its replacement would have the same name, `db-0`, and a Pod with that name still exists. Its volume stays attached to node-2 too.",
            ],
        },
        StepText {
            title: "The out-of-service taint",
            body: &[
                "The administrator, sure node-2 is off, runs `kubectl taint nodes node-2 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute`.",
                "The [[eviction|taint eviction controller]] finds a NoExecute taint the Pods do not tolerate and deletes them again at once (`Marking for deletion Pod default/db-0`); they are already `Terminating`, so nothing changes. At PodGC's next pass (`gcTerminating`), the terminating Pods on a node that is not Ready and carries the taint are marked `Failed` and deleted with a grace period of 0.",
                "With the Pod gone and the taint on the node, the attach-detach controller detaches the volume without waiting for it to be unmounted: it takes the volume out of node-2's `volumesAttached` and deletes the `VolumeAttachment`, which the external-attacher's finalizer keeps until the driver has detached the disk. Without the taint its 6-minute force-detach timer (`maxWaitForUnmountDuration`) would never even have started: it starts when no Pod needs the volume any more, and db-0, never deleted, still needed it.",
            ],
        },
        StepText {
            title: "db-0 comes back, same name",
            body: &[
                "With the old `db-0` gone, the StatefulSet controller creates `db-0` again: same name, new uid. The [[scheduler|scheduler]] binds it to node-3. While the volume is still attached to node-2, the new Pod gets `FailedAttachVolume` (`Multi-Attach error`); once the detach is done, the volume is attached to node-3, and it runs.",
                "Remove the taint with `kubectl taint nodes node-2 node.kubernetes.io/out-of-service-` once node-2 is back or deleted.",
            ],
        },
    ],
};
