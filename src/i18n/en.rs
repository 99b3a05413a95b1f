//! English.

use super::{ChapterText, Key, StepText};
use crate::sim::Chapter;

pub(super) fn text(key: Key) -> &'static str {
    match key {
        Key::AppTitle => "nodeline",
        Key::Tagline => "How a machine becomes a Kubernetes Node, and how the cluster notices when it goes quiet",
        Key::SkipToContent => "Skip to the story",
        Key::ChapterNav => "Chapters",
        Key::ChapterLabel => "Chapter {0}",
        Key::StepLabel => "Step {0}",
        Key::StepOf => "Step {0} of {1}",
        Key::PlayFromThisStep => "Play from this step",
        Key::ReadStep => "Read this step",
        Key::LinkCopied => "Link copied: {0}",
        Key::StepNotReached => "This step does not happen in this timeline: your actions changed the story.",
        Key::PreviousStep => "Previous step",
        Key::NextStep => "Next step",
        Key::Play => "Play",
        Key::Pause => "Pause",
        Key::Replay => "Replay",
        Key::Speed => "Speed",
        Key::SkipQuiet => "Fast-forward quiet stretches",
        Key::FastForwarding => "Fast-forwarding a quiet stretch (×{0}); the clock shows true time",
        Key::Clock => "Simulated time",
        Key::Timeline => "Timeline",
        Key::TimelineHelp => {
            "Drag or use the arrow keys to move through time. Numbered marks are the chapter's steps; ticks are requests and events."
        }
        Key::Requests => "Requests",
        Key::EventsTrack => "Events",
        Key::Stage => "Stage",
        Key::StageDescription => {
            "The machines, the control plane and the kube-node-lease namespace, with every request on its way to the API server."
        }
        Key::Machine => "Machine {0}",
        Key::KubeletRunning => "kubelet running",
        Key::KubeletStopped => "kubelet stopped",
        Key::MachinePoweredOff => "machine powered off",
        Key::VolumeAttachedHere => "volume {0} attached",
        Key::VolumeAttachingHere => "volume {0} attaching",
        Key::VolumeUsedBy => "{0}, used by Pod {1}",
        Key::StatefulSetIdentity => "StatefulSet {0} · ordinal {1}",
        Key::KubeletRestarting => "kubelet exited, systemd restarts it in 10 s",
        Key::RuntimeUp => "containerd running",
        Key::RuntimeDown => "containerd stopped",
        Key::CniNotReady => "no CNI config: NetworkReady=false",
        Key::BootstrapOnly => "bootstrap token only, no certificate",
        Key::BootstrapOnlyLabel => "the kubelet has only its bootstrap kubeconfig, {0}; no certificate in {1} yet",
        Key::CertificateLink => "{0}, a symlink to {1}",
        Key::NetworkOk => "network to the API server",
        Key::NetworkCut => "network to the API server cut",
        Key::ContainersRunning => "{0} containers running",
        Key::NoContainers => "no containers",
        Key::ControlPlane => "Control plane",
        Key::ApiServer => "kube-apiserver",
        Key::NodeLifecycleController => "node lifecycle controller",
        Key::Scheduler => "kube-scheduler",
        Key::TaintEvictionController => "taint eviction controller",
        Key::ReplicaSetController => "ReplicaSet controller",
        Key::LeaseNamespace => "namespace kube-node-lease",
        Key::LeaseRenewed => "renewed {0} ago",
        Key::NoLease => "no Lease yet",
        Key::NodeObject => "Node {0}",
        Key::NoNodeYet => "no Node object yet",
        Key::Sandbox => "Sandbox",
        Key::SandboxHelp => "Change the story at the playhead: the past is kept, the future is simulated again.",
        Key::ActingOn => "Machine",
        Key::KillKubelet => "Kill kubelet",
        Key::StartKubelet => "Start kubelet",
        Key::StopRuntime => "Stop container runtime",
        Key::StartRuntime => "Start container runtime",
        Key::CutNetwork => "Cut kubelet network",
        Key::RestoreNetwork => "Restore kubelet network",
        Key::CreatePod => "Create Pod",
        Key::CreateToleratingPod => "Create Pod tolerating not-ready",
        Key::CreateBestEffortPod => "Create BestEffort Pod",
        Key::CreatePriorityPod => "Create high-priority Pod",
        Key::AddMachine => "Add machine",
        Key::AddDuplicateMachine => "Add machine with duplicate name",
        Key::LabelNodeRole => "Label node-role",
        Key::Cordon => "Cordon",
        Key::Uncordon => "Uncordon",
        Key::Drain => "Drain",
        Key::CreatePdb => "Create PodDisruptionBudget",
        Key::BudgetField => "Budget",
        Key::BudgetValue => "Number or percentage",
        Key::BudgetRefused => "kubectl refuses it:",
        Key::CreateDaemonSet => "Create DaemonSet",
        Key::CreateCache => "Create node-local cache",
        Key::ShutdownMachine => "Shut down machine",
        Key::PowerOffMachine => "Power off machine",
        Key::DeleteNodeAction => "Delete Node",
        Key::DeletePodAction => "Delete Pod",
        Key::LeakMemoryAction => "Leak memory in Pod",
        Key::StopLeakAction => "Stop the memory leak",
        Key::ApproveCsrAction => "Approve the certificate signing request",
        Key::DenyCsrAction => "Deny the certificate signing request",
        Key::DeleteBootstrapTokenAction => "Delete the bootstrap token",
        Key::DeleteAutoApproveBindingAction => "Remove the CSR auto-approval binding",
        Key::LogsAction => "Read a container's logs",
        Key::ExecAction => "Run a command in a container",
        Key::TaintOutOfService => "Taint out-of-service",
        Key::UntaintOutOfService => "Remove out-of-service taint",
        Key::TaintNode => "Change a taint",
        Key::CreateStatefulSet => "Create StatefulSet",
        Key::CutZone => "Cut zone",
        Key::RestoreZone => "Restore zone",
        Key::CutControlPlane => "Cut the control plane off",
        Key::RestoreControlPlane => "Restore the control plane",
        Key::CutNodes => "Fail nodes of the zone",
        Key::ActionUnavailable => "Not now: {0}",
        Key::ForkNotice => "Your actions: {0}",
        Key::ResetSandbox => "Back to the chapter's story",
        Key::ResetSandboxStory => "Back to the story as written",
        Key::AccountTitle => "Your story",
        Key::AccountDeparted => "You changed the story at {0}: {1}.",
        Key::AccountHappened => "What happened",
        Key::AccountNext => "What comes next",
        Key::AccountEarlier => "{0} earlier",
        Key::AccountStory => "The chapter's story",
        Key::AccountStoryHelp => "What the chapter tells without your actions.",
        Key::AccountWritten => "The story as written",
        Key::AccountWrittenHelp => "What the story tells without your actions.",
        Key::AccountRepeated => "{0} ({1} times, the last at {2})",
        Key::AccountByYou => "You: {0}",
        Key::AccountByStory => "The story: {0}",
        Key::AccountRefused => "{0}, refused: {1}",
        Key::AccountRan => "ran `{0}`",
        Key::AccountOther => "{0} on {1}",
        Key::AccountKubeletStopped => "{0}'s kubelet stopped",
        Key::AccountKubeletStarted => "{0}'s kubelet started",
        Key::AccountRuntimeStopped => "containerd stopped on {0}",
        Key::AccountRuntimeStarted => "containerd started on {0}",
        Key::AccountNetworkCut => "{0}'s network cut",
        Key::AccountNetworkRestored => "{0}'s network restored",
        Key::AccountPodCreated => "a Pod created",
        Key::AccountBestEffortCreated => "a BestEffort Pod created on {0}",
        Key::AccountPriorityPodCreated => "a Pod of PriorityClass `high-priority` (priority 1000000) created on {0}",
        Key::AccountMemoryLeaking => "the Pod {0} started leaking memory",
        Key::AccountLeakStopped => "the Pod {0}'s leak stopped growing",
        Key::AccountShutdown => "{0} shut down (`systemctl poweroff`)",
        Key::AccountPoweredOff => "{0} powered off",
        Key::AccountZoneCut => "zone {0} cut off from the API server",
        Key::AccountZoneRestored => "zone {0} reconnected",
        Key::AccountNodesCut => "{0} nodes of zone {1} cut off from the API server",
        Key::AccountControlPlaneCut => "the control plane cut off from every kubelet",
        Key::AccountControlPlaneRestored => "the control plane reconnected",
        Key::AccountNodeReady => "{0} is Ready (`{1}`).",
        Key::AccountNodeUnknown => "The node lifecycle controller marked {0} Unknown (`{1}`).",
        Key::AccountNodeNotReady => "{0} is NotReady (`{1}`).",
        Key::AccountTaintAdded => "{0} got the taint `{1}`.",
        Key::AccountTaintRemoved => "The taint `{1}` came off {0}.",
        Key::AccountNodeDeleted => "The Node {0} was deleted.",
        Key::AccountPodGone => "The Pod {0} is gone from the API server.",
        Key::AccountPodFailed => "The Pod {0} failed (`{1}`).",
        Key::AccountMarkedForDeletion => "The taint eviction controller deleted the Pod {0}.",
        Key::AccountDeletionCancelled => "The taint eviction controller cancelled the deletion of the Pod {0}.",
        Key::AccountScheduled => "The scheduler placed the Pod {0} on {1}.",
        Key::AccountFailedScheduling => "The Pod {0} is Pending: `{1}`",
        Key::AccountKubectlPrinted => "kubectl: `{0}`",
        Key::AccountZoneState => "Zone {0} is now `{1}`.",
        Key::AccountMasterDisruption => {
            "No Node is Ready: the node lifecycle controller enters master disruption mode and evicts nothing."
        }
        Key::AccountMasterDisruptionOver => "Some Nodes are Ready again: master disruption mode ends.",
        Key::AccountNextUnknown => {
            "{0}'s Lease is no longer renewed (last at {1}); after the {2} grace period the node lifecycle controller will mark {0} Unknown and taint it unreachable, at about {3}."
        }
        Key::AccountNextRuntimeDown => "The kubelet on {0} will report it NotReady: its container runtime is down.",
        Key::AccountNextReadyAgain => {
            "The kubelet on {0} is back: its next status update makes {0} Ready, and the controller takes its taints off."
        }
        Key::AccountNextCordoned => "No new Pod is scheduled on {0} until `kubectl uncordon {0}`.",
        Key::AccountNextEviction => {
            "The taint eviction controller will delete {0} from {1} at about {2} (`tolerationSeconds: {3}`); the ReplicaSet then replaces it on a node that fits."
        }
        Key::AccountNextStuck => {
            "The Pod {0} stays Terminating on {1}: no kubelet confirms it stopped. Deleting the Node or tainting it `node.kubernetes.io/out-of-service` lets PodGC remove it."
        }
        Key::AccountNextPressureEvict => {
            "{0}'s `memory.available` is under `{1}` (`evictionHard`): at each round (every 10 s) the kubelet's eviction manager evicts one Pod, the first of its ranking (usage above request, then lower priority, then larger usage), until it is back above."
        }
        Key::AccountNextPressureLeak => {
            "A leak is using up {0}'s memory: `memory.available` falls under `{1}` at about {2}, and the kubelet's eviction manager then evicts one Pod a round."
        }
        Key::AccountNextPressureSoft => {
            "{0}'s `memory.available` is under `{1}` (`evictionSoft`): the kubelet reports `MemoryPressure` from the round that first found it, and once the threshold has been met for `evictionSoftGracePeriod` ({2}) its eviction manager evicts one Pod a round."
        }
        Key::AccountNextPressureClears => {
            "The threshold was last met on {0} at {1}: the kubelet reports `MemoryPressure` until `evictionPressureTransitionPeriod` ({3}) has passed, from about {2} (at its next round, then its next status update), and the node lifecycle controller then takes the `node.kubernetes.io/memory-pressure:NoSchedule` taint off."
        }
        Key::AccountNextPending => "The Pod {0} waits for a node it can run on.",
        Key::AccountNextRetry => {
            "kubectl retries the eviction every 5 s: the PodDisruptionBudget {0} allows {1} disruptions ({2} Pods healthy, {3} needed), so each try gets 429 until the budget allows a disruption again."
        }
        Key::AccountNextDrainWaits => "kubectl waits for the evicted Pods to be gone, checking every second.",
        Key::AccountNextMaster => {
            "Master disruption mode: no Node is tainted and no Pod evicted until a zone has a `Ready` Node again."
        }
        Key::AccountNextZoneUnknown => {
            "In {1}, Nodes that no longer report: {0}. After the {2} grace period the node lifecycle controller marks them `Unknown`, from about {3}."
        }
        Key::AccountNextZoneState => "Zone {0} becomes `{1}` at the node lifecycle controller's next pass (every 5 s).",
        Key::AccountNextZoneReviving => {
            "In {1}, Nodes whose kubelet reports again: {0}. Their next status update makes them `Ready`, and the controller takes their taints off."
        }
        Key::AccountNextZoneWriting => {
            "The node lifecycle controller has marked Nodes of zone {0} that its client has not written yet (its writes wait for tokens); it says the zone's new state once they are sent."
        }
        Key::AccountNextZoneTaints => {
            "In {1}, not-Ready Nodes waiting for their `NoExecute` taint: {0}, tainted {2}; the last at about {3}."
        }
        Key::AccountNextZoneNoTaints => {
            "In {1}, not-Ready Nodes waiting for their `NoExecute` taint: {0}, but tainting is stopped ({2}): their Pods stay where they are."
        }
        Key::AccountNextZoneEvictions => {
            "In {1}, Pods on `NoExecute`-tainted Nodes: {0}. They are evicted as their `tolerationSeconds` run out, from about {2}; their ReplicaSets replace them where Nodes are Ready."
        }
        Key::AccountNextNothing => "Nothing more is expected to change until you act again.",
        Key::Inspector => "Inspector",
        Key::TabNode => "Node",
        Key::TabLease => "Lease",
        Key::TabPods => "Pods",
        Key::TabEvents => "Events",
        Key::Conditions => "Conditions",
        Key::ColType => "Type",
        Key::ColStatus => "Status",
        Key::ColLastHeartbeatTime => "LastHeartbeatTime",
        Key::ColLastTransitionTime => "LastTransitionTime",
        Key::ColReason => "Reason",
        Key::ColMessage => "Message",
        Key::Taints => "Taints",
        Key::NoTaints => "none",
        Key::ColKey => "Key",
        Key::ColEffect => "Effect",
        Key::ColTimeAdded => "TimeAdded",
        Key::HolderIdentity => "HolderIdentity",
        Key::RenewTime => "RenewTime",
        Key::LeaseDuration => "LeaseDurationSeconds",
        Key::RenewedAgo => "{0} ago",
        Key::GraceCountdown => "About {0} left of the {1} grace period.",
        Key::GracePassed => "The grace period ({0}) has passed since the last renewal the controller saw.",
        Key::ColName => "Name",
        Key::ColPhase => "Status",
        Key::ColReady => "Ready",
        Key::ColNode => "Node",
        Key::ColAge => "Age",
        Key::ColPv => "PV",
        Key::ColAttached => "Attached",
        Key::VolumeAttachments => "VolumeAttachments",
        Key::NoPods => "No Pods",
        Key::Memory => "Memory",
        Key::MemoryCapacity => "Capacity",
        Key::MemoryAllocatable => "Allocatable",
        Key::MemoryHard => "Hard eviction threshold",
        Key::MemorySoft => "Soft eviction threshold",
        Key::MemorySoftValue => "{0}, once met for {1}",
        Key::ColContainer => "Container",
        Key::ColUsage => "Usage (working set)",
        Key::ColRequest => "Request",
        Key::ColLimit => "Limit",
        Key::MemoryAboveRequest => "above its request: {0}",
        Key::MemoryWithinRequest => "within its request: {0}",
        Key::ColLastSeen => "Last seen",
        Key::ColObject => "Object",
        Key::NoEvents => "No events",
        Key::NotesTitle => "Notices",
        Key::Dismiss => "Dismiss",
        Key::NoticeUnknownChapter => "There is no chapter \"{1}\" ({0}); showing the first chapter.",
        Key::NoticeBadStory => {
            "\"{1}\" is not a story's name ({0}: lowercase letters, digits and dashes); showing the first chapter."
        }
        Key::NoticeStoryMissing => "There is no story \"{0}\" on this site ({1}: {2}); showing the first chapter.",
        Key::NoticeStoryUnreachable => "The story \"{0}\" could not be fetched ({1}); showing the first chapter.",
        Key::NoticeStoryBroken => {
            "The story \"{0}\" could not be read; showing the first chapter. Its problems follow."
        }
        Key::NoticeStoryProblem => "{0}:{1}: {2}",
        Key::NoticeStorySingleFile => {
            "nodeline.html carries no story \"{0}\" (it carries the stories its site had when it was built, and reads nothing from outside itself): open it on the site. Showing the first chapter."
        }
        Key::StoryLabel => "Story",
        Key::MoreStories => "More stories",
        Key::StoryEnglishOnly => "This story is written in English only.",
        Key::NoticeBadStep => "\"{1}\" is not a step number ({0}); starting at the first step.",
        Key::NoticeStepOutOfRange => "There is no step {1} in this chapter ({0}); using step {2}.",
        Key::NoticeBadFlag => "\"{1}\" is not 0 or 1 ({0}); ignored.",
        Key::NoticeBadTime => "\"{1}\" is not a duration like 90s or 2m30s ({0}); ignored.",
        Key::NoticeTimeTooLate => "\"{1}\" is later than this page simulates ({0}); using 2h.",
        Key::NoticeBadAction => "\"{1}\" is not an action this page knows ({0}); dropped.",
        Key::NoticeBadSpeed => "\"{1}\" is not one of the speeds ({0}); using 1×.",
        Key::NoticeBadTheme => "\"{1}\" is not light or dark ({0}); following your system.",
        Key::NoticeBadLang => "\"{1}\" is not a language this page speaks ({0}); using your browser's.",
        Key::NoticeBadOrigin => "\"{1}\" is not a web origin like https://docs.example ({0}); ignored.",
        Key::NoticeBadProfile => {
            "\"{1}\" is not a Kubernetes version this page models ({0}: 1.34 or 1.31); using 1.34."
        }
        Key::NoticeBadNodes => "\"{1}\" is not a number of nodes ({0}: 3 to 1000); using 150.",
        Key::NoticeNodesOutOfRange => "A fleet of {1} nodes is not possible ({0}: 3 to 1000); using {2}.",
        Key::ShutdownSettings => "Graceful node shutdown, every kubelet",
        Key::ShutdownApply => "Apply and replay",
        Key::ShutdownHelp => {
            "Go durations, as in the kubelet's configuration file (empty is 0s; both 0s turn it off). The chapter runs again from the start with your actions."
        }
        Key::ShutdownRefused => "The kubelet would refuse this: {0}",
        Key::NoticeBadShutdown => {
            "The kubelet would refuse {0}={1} ({2}); every machine keeps its chapter's shutdown settings."
        }
        Key::NoticeUnknownParam => "The link has a parameter this page does not know: {0}={1}; ignored.",
        Key::NoticeRepeated => "The link gives {0} more than once; the first value is used.",
        Key::NoticeActionRejected => "{0} had no effect: {1}.",
        Key::ReducedMotion => "Reduced motion is on: states change without animation.",
        Key::Shortcuts => "Keyboard shortcuts",
        Key::ShortcutsTitle => "Keyboard shortcuts",
        Key::ShortcutPlayPause => "Play or pause",
        Key::ShortcutPrevStep => "Previous step",
        Key::ShortcutNextStep => "Next step",
        Key::ShortcutSlower => "Slower",
        Key::ShortcutFaster => "Faster",
        Key::ShortcutHelp => "Show or hide this list",
        Key::ShortcutClose => "Close this list",
        Key::Close => "Close",
        Key::Language => "Language",
        Key::KubernetesVersion => "Kubernetes version",
        Key::ErrorTitle => "Something went wrong",
        Key::ErrorBody => {
            "nodeline hit an internal error and stopped. Reloading the page starts it again from the link you opened."
        }
        Key::Reload => "Reload",
        Key::ChapterEnd => "End of the chapter's story. Replay it from step 1, or change the story with the sandbox.",
        Key::StoryEnd => "End of the story. Replay it from step 1, or change it with the sandbox.",
        Key::PlayFromStep => "Play from step {0}:",
        Key::StepsNav => "Steps of this chapter",
        Key::StepsNavStory => "Steps of this story",
        Key::InspectNode => "Node to inspect",
        Key::ChangedLegend => "Marked cells changed in the last 2 s of simulated time.",
        Key::EventsCapped => "Showing the {0} most recent events.",
        Key::GracePeriodTitle => "Node monitor grace period",
        Key::GraceExplain => {
            "The node lifecycle controller counts from the check (every 5 s) at which it last saw a heartbeat, a Lease renewal or a status update, on its own clock. It marks the node Unknown at its first check after the grace period; leaseDurationSeconds plays no part."
        }
        Key::GraceNextCheck => "The controller marks the node Unknown at its next check.",
        Key::GraceNodeUnknown => {
            "The controller has marked the node Unknown; it stays so until the kubelet posts its status again."
        }
        Key::MachineHostname => "{0} (hostname {1})",
        Key::TimelineRegion => "Playback",
        Key::SpeedValue => "{0}×",
        Key::StepMarkerTitle => "Step {0}: {1} ({2})",
        Key::StepGroup => "Steps {0} to {1}",
        Key::StepOfStory => "Step {0} of the chapter's story: {1} (your actions changed this timeline)",
        Key::StepOfWritten => "Step {0} of the story as written: {1} (your actions changed this timeline)",
        Key::StepStoryOnly => {
            "This step belongs to the chapter's story as told; your actions changed what happens in this timeline."
        }
        Key::StepPendingTitle => "Step {0}: {1} (still being computed; choose it to compute up to it now)",
        Key::ShortcutsOnTimeline => "On the timeline",
        Key::ShortcutSeekSecond => "1 second back or forward",
        Key::ShortcutSeekTenSeconds => "10 seconds back or forward",
        Key::ShortcutSeekMinute => "1 minute back or forward",
        Key::ShortcutSeekEnds => "To the start or the end",
        Key::KeyCapSpace => "Space",
        Key::KeyCapShift => "Shift",
        Key::KeyCapEsc => "Esc",
        Key::KeyCapPageUp => "Page Up",
        Key::KeyCapPageDown => "Page Down",
        Key::KeyCapHome => "Home",
        Key::KeyCapEnd => "End",
        Key::TrackLegendKubelet => "kubelet",
        Key::TrackLegendControllers => "controllers",
        Key::TrackLegendScheduler => "scheduler",
        Key::TrackLegendKubectl => "kubectl",
        Key::TrackLegendEviction => "eviction (201)",
        Key::TrackLegendEvictionRefused => "eviction refused (429)",
        Key::TrackLegendRoutine => "Lease renewals and reads",
        Key::TrackLegendTimeout => "timed out",
        Key::TrackLegendNormal => "Normal",
        Key::TrackLegendWarning => "Warning",
        Key::StagePart => "{0}: {1}",
        Key::OneContainerRunning => "1 container running",
        Key::ControllerManager => "kube-controller-manager",
        Key::IpamTtlControllers => "node IPAM + TTL controllers",
        Key::PodGcControllers => "PodGC, GC, StatefulSet, attach-detach",
        Key::KubectlClient => "kubectl (you)",
        Key::StoredObjects => "Objects stored by the API server",
        Key::LeaseObject => "Lease {0}",
        Key::BudgetObject => "PodDisruptionBudget {0}",
        Key::LeaseStale => "renewed {0} ago (> {1} grace period)",
        Key::LastRequest => "Last request, from {0}: {1}",
        Key::NoRequestYet => "No request yet.",
        Key::RequestWaiting => "no answer yet",
        Key::RequestTimeout => "timeout",
        Key::LinkCut => "cut",
        Key::MoreItems => "+{0} more",
        Key::ShowAllPods => "Show all {0} Pods",
        Key::ShowFewerPods => "Show fewer",
        Key::RefuseNoSuchMachine => "there is no machine named {0}",
        Key::RefuseKubeletNotRunning => "the kubelet on {0} is not running",
        Key::RefuseKubeletAlreadyRunning => "the kubelet on {0} is already running",
        Key::RefuseRuntimeAlreadyStopped => "containerd on {0} is already stopped",
        Key::RefuseRuntimeAlreadyRunning => "containerd on {0} is already running",
        Key::RefuseNetworkAlreadyCut => "the network of {0} is already cut",
        Key::RefuseNetworkNotCut => "the network of {0} is not cut",
        Key::RefuseTooManyPods => "this sandbox holds at most {0} Pods",
        Key::RefuseTooManyMachines => "this sandbox holds at most {0} machines",
        Key::RefuseDuplicateExists => "a second machine named {0} already exists",
        Key::RefuseNodeNotRegistered => "the Node {0} is not registered yet",
        Key::RefuseMachineCannotReach => "{0} cannot reach the API server: its network is cut",
        Key::RefuseOutOfServiceTainted => "the Node {0} already has the node.kubernetes.io/out-of-service taint",
        Key::RefuseOutOfServiceNotTainted => "the Node {0} has no node.kubernetes.io/out-of-service taint",
        Key::RefuseStatefulSetExists => "the StatefulSet {0} already exists",
        Key::RefuseDeploymentExists => "the Deployment {0} already exists",
        Key::RefuseInvalidTaint => "\"{0}\" is not a Node and a taint, NODE/KEY[=VALUE]:EFFECT",
        Key::ChartTitle => "Per zone over time",
        Key::ChartLegend => {
            "Red: nodes not Ready. Dashed: nodes with a NoExecute taint. Dotted: Pods terminating. Green: Pods running."
        }
        Key::ChartMax => "top: {0}",
        Key::ChartValues => "{0}: {1} not Ready, {2} NoExecute, {3} Pods terminating, {4} running.",
        Key::ChartPoint => {
            "{0}, zone {1}: {2}; {3} Ready, {4} not Ready, {5} with NoExecute; tainting {6}; Pods: {7} running, {8} terminating."
        }
        Key::ChartPointName => "Point on the chart",
        Key::ChartHelp => {
            "Hover over a zone's chart, or focus the chart and use the arrow keys (left and right: time; up and down: zone), to read a point's values."
        }
        Key::PodsMoved => "Pods, last minute: {0}",
        Key::PodsMovedSummary => "In the last minute, running Pods changed: {0}.",
        Key::RateStopped => "stopped",
        Key::RateEvery => "one node every {0} s",
        Key::ZoneSummary => {
            "Zone {0}: {1}; {2} Ready, {3} not Ready, {4} with NoExecute; tainting {5}, {6} waiting; Pods: {7} running, {8} terminating."
        }
        Key::ZoneStateNext => "{0} → {1} (next pass)",
        Key::ZoneStateWriting => "{0} (its pass is writing)",
        Key::ZoneCounts => "{0} Ready · {1} not Ready · {2} NoExecute",
        Key::ZoneQueue => "NoExecute: {0} · {1} waiting",
        Key::ZonePods => "Pods: {0} running · {1} terminating",
        Key::ClientWaiting => {
            "kube-controller-manager · node lifecycle controller's client ({0} requests a second, burst {1}): {2} requests waiting, for {3} s"
        }
        Key::ReplicaSetClientWaiting => {
            "kube-controller-manager · ReplicaSet controller's client ({0} requests a second, burst {1}): {2} requests waiting, for {3} s"
        }
        Key::ClientIdle => {
            "kube-controller-manager · node lifecycle controller's client ({0} requests a second, burst {1}): no request waiting"
        }
        Key::MasterDisruption => "Master disruption mode: every zone is fully disrupted; nothing is evicted.",
        Key::FleetStage => "The fleet: three zones, one cell per node",
        Key::FleetStageHelp => {
            "Square: Ready. Diamond: NotReady. Circle: Unknown. A bar: NoSchedule taint; a cross: NoExecute taint. Click a node, or focus the drawing and use the arrow keys, to inspect it."
        }
        Key::ControllerLog => "kube-controller-manager log",
        Key::FleetZone => "Zone",
        Key::FleetCount => "Nodes to fail",
        Key::AnnounceZoneState => "Zone {0} is now {1}.",
        Key::RefuseNoSuchZone => "there is no zone named {0}",
        Key::RefuseZoneAlreadyCut => "every node of zone {0} is already cut off",
        Key::RefuseZoneNotCut => "no node of zone {0} is cut off",
        Key::RefuseControlPlaneAlreadyCut => "the API server already hears no kubelet",
        Key::RefuseControlPlaneNotCut => "no kubelet is cut off from the API server",
        Key::RefuseNoSuchPod => "there is no Pod {0}",
        Key::RefusePodNotRunning => "the Pod {0} has no running container",
        Key::RefusePodAlreadyLeaking => "the Pod {0} already leaks memory",
        Key::RefuseNoPodRunning => "no Pod is running",
        Key::PodPick => "Pod",
        Key::RefusePodNotLeaking => "the Pod {0} does not leak memory",
        Key::LanguageSwitch => "Language: {0}",
        Key::AnnounceDeparted => "Your actions changed the story: the narration now tells what they cause.",
        Key::AnnounceNodeStatus => "{0} is now {1}.",
        Key::AnnouncePodEvicted => "Pod {0} was evicted by the taint eviction controller.",
        // embed and shipping
        Key::NoScriptIntro => {
            "nodeline is an interactive simulation: it plays with JavaScript and WebAssembly. Without them, read the story step by step, each step with its stage at that moment:"
        }
        Key::StaticPageIntro => {
            "This is nodeline's story as pages, one a step, for reading without JavaScript. To play it, the page needs JavaScript and WebAssembly: “Play from this step” opens it there."
        }
        Key::StillLoading => "Loading the simulation for this link…",
        Key::StillFailed => "The simulation could not be loaded here: the steps are shown as told, without playing.",
        // kubectl panel
        Key::TabYaml => "YAML",
        Key::TabKubectl => "kubectl",
        Key::TabRequests => "Requests",
        Key::YamlObject => "Object",
        Key::YamlCompareWith => "Compare with",
        Key::YamlNoCompare => "nothing: mark what the last change did",
        Key::YamlCreatedBy => "Created at {0} by {1} from {2} ({3}).",
        Key::YamlChangedBy => "Changed at {0} by {1} from {2} ({3}).",
        Key::YamlChangedAt => "Changed at {0}.",
        Key::YamlChangedLegend => "Marked lines are the ones that change wrote.",
        Key::YamlDiffTitle => "From the version of {0} to the one at the playhead ({1}):",
        Key::YamlNoChanges => "No differences.",
        Key::KubectlPromptLabel => "kubectl command",
        Key::KubectlRun => "Run",
        Key::KubectlSuggestions => "Try",
        Key::KubectlHelp => {
            "Type a command or pick one; ↑ and ↓ recall earlier ones. The output is what kubectl prints for the cluster at the playhead, and follows it."
        }
        Key::KubectlEmpty => "Run a command to see kubectl's output here.",
        Key::KubectlNoContainerOutput => {
            "nodeline simulates no container output: the kubelet would answer with the container's log, which a real kubectl prints on stdout. kubectl printed nothing else."
        }
        Key::KubectlNoCommandRun => {
            "nodeline runs no commands in containers: the kubelet would run the command and kubectl would show its output and exit status. kubectl printed nothing else."
        }
        Key::RequestsHelp => {
            "The latest requests up to the playhead, newest first. Open one to see it as client-go logs it with -v=8; click a request on the stage to open it here."
        }
        Key::RequestEffect => "What it did: {0}",
        // question mode
        Key::QuizSwitch => "Questions",
        Key::QuizRegion => "Question",
        Key::QuizQuestionOf => "Question {0} of {1}",
        Key::QuizCheck => "Check",
        Key::QuizSkip => "Skip",
        Key::QuizContinue => "Continue",
        Key::QuizRight => "Right.",
        Key::QuizWrong => "Not quite.",
        Key::QuizAnswerWas => "The answer: {0}.",
        Key::QuizSeconds => "Seconds",
        Key::QuizTolerance => "Within {0} s counts as right.",
        Key::QuizEnterSeconds => "Enter a number of seconds, such as 45.",
        Key::QuizMoveUp => "Move up: {0}",
        Key::QuizMoveDown => "Move down: {0}",
        Key::QuizOrderHelp => "What happens first goes at the top.",
        Key::QuizNodes => "Nodes on the stage",
        Key::QuizPickOnStage => "Choose a node below, or click its machine on the stage.",
        Key::QuizProgress => "Questions: {0} of {1} answered, {2} right",
        Key::QuizSummaryTitle => "Your answers in this chapter",
        Key::QuizSummaryTitleStory => "Your answers in this story",
        Key::QuizAllRight => "Every question right.",
        Key::QuizMissed => "Worth another look:",
        Key::NoticeBadProgress => {
            "\"{1}\" is not a progress this chapter's questions can use ({0}); what could not be read counts as not answered."
        }
    }
}

pub(super) fn chapter(chapter: Chapter) -> &'static ChapterText {
    match chapter {
        Chapter::Registration => &REGISTRATION,
        Chapter::NodeFailure => &NODE_FAILURE,
        Chapter::KubeletRestart => &KUBELET_RESTART,
        Chapter::ZoneOutage => &ZONE_OUTAGE,
        Chapter::Maintenance => &MAINTENANCE,
        Chapter::NodeGoesAway => &super::goes_away_en::NODE_GOES_AWAY,
    }
}

static REGISTRATION: ChapterText = ChapterText {
    title: "Node registration",
    summary: "How a machine running a kubelet becomes a Node the scheduler can use.",
    steps: &[
        StepText {
            title: "A machine with a kubelet, and no Node yet",
            body: &[
                "The [[machine|machine]] runs containerd and a [[kubelet|kubelet]] started with `--register-node` at its default, `true`. Nothing in the cluster knows this machine yet: the [[apiserver|API server]] has no Node object for it.",
                "containerd is up, but no CNI plugin has written its configuration yet, so the [[runtime|runtime]] reports `NetworkReady=false`. That will matter in step 4.",
            ],
        },
        StepText {
            title: "The kubelet POSTs its Node",
            body: &[
                "The [[kubelet|kubelet]] sends `POST /api/v1/nodes`. The body already carries a status: `addresses`, `capacity`, `allocatable`, `nodeInfo` and the [[conditions|conditions]], with `Ready` `False`, reason `KubeletNotReady`, because the runtime's network is not ready.",
                "The TaintNodesByCondition admission plugin adds `node.kubernetes.io/not-ready:NoSchedule` to the new Node's [[taints|taints]]. Names are unique: a second machine with the same name would get `409 AlreadyExists` and adopt this object.",
                "Right after, the kubelet's first [[lease|Lease]] attempt finds no Node to own it; the Lease is created on the next 10 s tick.",
                "The `Ready` message also ends with `failed to initialize CSINode`: since it started, the kubelet's CSI volume plugin has been trying to create the `CSINode` named `node-1`, and needs the Node's `uid` for its owner reference (`nodes \"node-1\" not found`). A moment after the POST it reads the Node and sends `POST /apis/storage.k8s.io/v1/csinodes`; the next status leaves that part out.",
            ],
        },
        StepText {
            title: "Status PATCHes, labels, and what a kubelet may not do",
            body: &[
                "From now on the kubelet recomputes its status every 10 s (`nodeStatusUpdateFrequency`) and sends `PATCH /api/v1/nodes/node-1/status` only when something changed, or every 5 minutes (`nodeStatusReportFrequency`) when nothing did.",
                "Labels live on `metadata`. The kubelet sets `kubernetes.io/hostname`, `kubernetes.io/os` and `kubernetes.io/arch`, never a role. Here someone on node-1 runs `kubectl label node node-1 node-role.kubernetes.io/worker=` with the kubelet's kubeconfig (user `system:node:node-1`), and the NodeRestriction admission plugin answers `403 Forbidden`: roles are set by an administrator, never with the node's own credentials.",
                "In practice you meet this earlier: a kubelet started with `--node-labels=node-role.kubernetes.io/worker` refuses to start (`unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels`). The kubelet refuses to start with that flag; the API server refuses the node's credentials when someone tries by hand, which is what you see here.",
            ],
        },
        StepText {
            title: "Not Ready: the taint keeps ordinary Pods off",
            body: &[
                "`Ready` stays `False` while the runtime's network is not ready. The [[scheduler|scheduler]] does not read conditions: it reads [[taints|taints]]. An ordinary Pod does not tolerate `node.kubernetes.io/not-ready`, so it stays Pending with a `FailedScheduling` event.",
                "A Pod that tolerates the taint is bound at once. Its containers still cannot start: the kubelet reports `NetworkNotReady` until the network is there.",
            ],
        },
        StepText {
            title: "Ready: the taint comes off, the Pod is bound",
            body: &[
                "The CNI configuration appears and containerd reports `NetworkReady=true`. The kubelet's fast startup loop patches `Ready` to `True` within a moment and records `NodeReady`.",
                "The [[nlc|node lifecycle controller]] removes the not-ready taint. The [[scheduler|scheduler]] binds the pending Pod with `POST /api/v1/namespaces/default/pods/NAME/binding`, which sets `spec.nodeName`. The [[kubelet|kubelet]] sees a Pod for its node, pulls the image and starts the [[containers|containers]].",
            ],
        },
        StepText {
            title: "Alive is not Ready: two heartbeats",
            body: &[
                "Every 10 s the kubelet renews its [[lease|Lease]] in `kube-node-lease` with a `PUT`: `renewTime` moves, nothing else. That is the cheap, fast heartbeat the control plane watches.",
                "The Node's status is the slow one: `lastHeartbeatTime` in the [[conditions|conditions]] moves only when the kubelet PATCHes, on a change or every 5 minutes. Play on to see the 5-minute report arrive.",
            ],
        },
    ],
};

static NODE_FAILURE: ChapterText = ChapterText {
    title: "Node failure and Pod recovery",
    summary: "Kill the kubelet on node-1 and watch the cluster notice, taint, evict and replace.",
    steps: &[
        StepText {
            title: "Two nodes, two heartbeats",
            body: &[
                "node-1 runs the Deployment's Pod; node-2 joined a little later. Each [[kubelet|kubelet]] renews its [[lease|Lease]] every 10 s and PATCHes its Node status every 5 minutes.",
                "The [[nlc|node lifecycle controller]] checks every node every 5 s (`--node-monitor-period`). A Lease `renewTime` that moved counts as a heartbeat.",
            ],
        },
        StepText {
            title: "The kubelet on node-1 stops",
            body: &[
                "`systemctl stop kubelet`: the [[kubelet|kubelet]] is gone, but its Pod's [[containers|containers]] keep running on the machine: nothing stops them.",
                "The [[lease|Lease]] is no longer renewed. Its `leaseDurationSeconds` is 40, but no component acts on that: the controller only watches whether `renewTime` moves.",
            ],
        },
        StepText {
            title: "The grace period runs out: Unknown",
            body: &[
                "After the node monitor grace period (50 s since Kubernetes 1.32; 40 s before) without a renewal, the [[nlc|controller]] sets `Ready`, `MemoryPressure`, `DiskPressure` and `PIDPressure` to `Unknown` with reason `NodeStatusUnknown` and message `Kubelet stopped posting node status.`",
                "`kubectl get nodes` now shows `NotReady`. The node's [[pods|Pods]] are marked not Ready, each with a `NodeNotReady` warning.",
            ],
        },
        StepText {
            title: "Unreachable taints; the 300 s countdown starts",
            body: &[
                "Milliseconds after the Unknown write, the controller adds `node.kubernetes.io/unreachable:NoSchedule`; one monitor pass later (about 5 s), the NoExecute one. Both carry `timeAdded`.",
                "Every Pod was given `tolerationSeconds: 300` for that taint at admission (DefaultTolerationSeconds), so the [[eviction|taint eviction controller]] schedules the deletion 300 s from now. With every node down it would evict nothing: a one-node cluster never gets here.",
            ],
        },
        StepText {
            title: "The toleration runs out: the Pod is deleted",
            body: &[
                "The [[eviction|taint eviction controller]] records `TaintManagerEviction`, adds the `DisruptionTarget` condition and deletes the Pod. The deletion sets `deletionTimestamp`: the Pod shows `Terminating` because no kubelet is there to confirm its containers stopped. They are still running on node-1.",
            ],
        },
        StepText {
            title: "A replacement runs on node-2",
            body: &[
                "The [[replicaset|ReplicaSet controller]] does not count Terminating Pods, so it creates a replacement at once. The [[scheduler|scheduler]] binds it to node-2 (node-1 is tainted), and node-2's kubelet starts it.",
                "Recovery took about the grace period plus 300 s, by design: a node that is briefly unreachable should not lose its Pods.",
            ],
        },
    ],
};

static KUBELET_RESTART: ChapterText = ChapterText {
    title: "Kubelet restart",
    summary: "The kubelet comes back: 409, adoption, Ready, and the evictions that were still pending are cancelled.",
    steps: &[
        StepText {
            title: "Down for a while",
            body: &[
                "The kubelet on node-1 stopped two minutes ago. The Node is `NotReady`, its [[conditions|conditions]] `Unknown`, and both unreachable [[taints|taints]] are on. The Pod's deletion is scheduled but its 300 s have not run out.",
            ],
        },
        StepText {
            title: "The kubelet starts and adopts its Node",
            body: &[
                "The [[kubelet|kubelet]] records `Starting`, builds its Node again and POSTs it: `409 AlreadyExists`. It GETs the existing object and adopts it; only a few default labels and annotations would be reconciled.",
                "The pressure events fire again (`x2`: once for the fresh object, once coming back from Unknown), then `NodeNotReady` while PLEG has not relisted yet, and `NodeAllocatableEnforced`.",
            ],
        },
        StepText {
            title: "Ready again",
            body: &[
                "The fast status loop PATCHes `Ready` `True` as soon as the runtime and PLEG checks pass: `NodeReady`. [[lease|Lease]] renewals resume.",
            ],
        },
        StepText {
            title: "Taints off, evictions cancelled",
            body: &[
                "The [[nlc|controller]] removes the NoSchedule taint at once and the NoExecute one at its next pass. The [[eviction|taint eviction controller]] cancels the pending deletion (`Cancelling deletion of Pod`), and the kubelet reports the still-running Pod Ready again.",
                "Had the kubelet come back within the grace period, the node would never have gone NotReady: the only trace would be the `Starting`, pressure and `NodeAllocatableEnforced` events.",
            ],
        },
    ],
};

static ZONE_OUTAGE: ChapterText = ChapterText {
    title: "A zone goes dark",
    summary: "A fleet in three zones: per-zone states, rate-limited tainting and master disruption mode.",
    steps: &[
        StepText {
            title: "Three healthy zones",
            body: &[
                "A fleet in three zones of one region: each kubelet registers its Node with `topology.kubernetes.io/region` and `topology.kubernetes.io/zone`, as a cloud provider labels them. A Deployment, `web`, runs one Pod a node, spread over the zones. Change the size with `&nodes=N`, from 3 to 1,000.",
                "The [[replicaset|ReplicaSet controller]] created those Pods through a client of its own, as every controller of kube-controller-manager has one: 20 requests a second after a burst of 30, its Events included. 150 Pods take 7 s, 1,000 about 50 s, and the line under the drawing shows the creates waiting.",
                "Every 10 s each kubelet renews its Lease. Every 5 s the [[nlc|node lifecycle controller]] checks every Node and counts each zone's Ready and not-Ready Nodes: all three zones are `Normal`. Each zone has its own tainting queue, a token bucket that lets one node through every 10 s (`--node-eviction-rate` 0.1).",
            ],
        },
        StepText {
            title: "A few nodes fail, tainted one every 10 s",
            body: &[
                "A few kubelets in `eu-west-1b` lose the API server. After the 50 s grace period the controller sets their conditions to `Unknown` and adds `node.kubernetes.io/unreachable:NoSchedule` at once.",
                "The `NoExecute` taint goes through the zone's queue: the first node at once (the bucket starts full), then one every 10 s. Each taint starts the 300 s countdown of the Pods' tolerations. The zone is still `Normal`: a few nodes of a zone are far from 55 %.",
            ],
        },
        StepText {
            title: "Past 55 %: tainting slows, or stops",
            body: &[
                "More than half of `eu-west-1b` goes quiet. With more than two Nodes not Ready and at least 55 % of the zone (`--unhealthy-zone-threshold` 0.55), the zone is `PartialDisruption`, and the controller logs `Controller detected that zone is now in new state`.",
                "In a zone of more than 50 nodes (`--large-cluster-size-threshold`) the queue slows to one node every 100 s (`--secondary-node-eviction-rate` 0.01); in a zone of 50 or fewer, as at the default size, it stops. Most of a zone vanishing at once is more likely a network partition than broken machines: emptying the zone would move its whole workload for nothing. Open the chapter with `&nodes=153` to see the slower rate.",
            ],
        },
        StepText {
            title: "The whole zone goes dark",
            body: &[
                "The rest of `eu-west-1b` goes quiet. After the grace period the controller marks each of its Nodes `Unknown`: the Node's status, its Pods' statuses, the `NoSchedule` taint and their Events all go through its client at kube-controller-manager's 20 requests a second (burst 30), and the stage shows the requests waiting. It counts the zone only once its pass has checked every Node, about a minute after the cut (over 70 s at 1,000 nodes).",
                "With no Ready Node left the zone is `FullDisruption`, and while the other zones are healthy the controller treats it as a real outage: the queue gets a fresh bucket at one node every 10 s, so the next node is tainted 10 s after the change.",
                "As tolerations run out, the [[eviction|taint eviction controller]] deletes the Pods (three requests each, at the controller manager's 20 requests a second, burst 30), the [[replicaset|ReplicaSet]] creates replacements and the [[scheduler|scheduler]] binds them in `eu-west-1a` and `eu-west-1c`.",
            ],
        },
        StepText {
            title: "The control plane loses every node",
            body: &[
                "Now the [[apiserver|API server]] hears no kubelet at all. Every zone becomes `FullDisruption` and the controller logs `Controller detected that all Nodes are not-Ready. Entering master disruption mode`.",
                "Every Node going quiet at once is more likely a fault of the control plane's own network than of every machine. The controller removes every `NoExecute` taint (the `NoSchedule` ones stay), stops all tainting, and the pending evictions are cancelled: nothing more is evicted.",
            ],
        },
        StepText {
            title: "Recovery",
            body: &[
                "The network comes back. The first Ready Node ends master disruption mode (`Exiting master disruption mode`): every Node's grace period starts again from now, which spares the Nodes that are back. A Node still `Unknown` waits for no new grace period: at the next pass it goes back into its zone's tainting queue, and waits only for the zone's bucket.",
                "The kubelets report Ready, the `unreachable` taints come off, and the zones return to `Normal`.",
            ],
        },
    ],
};

static MAINTENANCE: ChapterText = ChapterText {
    title: "Maintenance",
    summary: "Cordon, drain against a PodDisruptionBudget, uncordon: every eviction at once, 429 and kubectl's retries.",
    steps: &[
        StepText {
            title: "A node to maintain, a workload with a budget",
            body: &[
                "Three nodes. A DaemonSet runs a `node-agent` Pod on each, and the Deployment `web` runs six [[pods|Pods]], two per node. Someone runs `kubectl create pdb web --selector=app=web --min-available=5`.",
                "The disruption controller writes the budget's status: `expectedPods` 6, `desiredHealthy` 5, `currentHealthy` 6, so `disruptionsAllowed` is 1 and the condition `DisruptionAllowed` is `True` (`SufficientPods`).",
            ],
        },
        StepText {
            title: "Cordon: no new Pods, and the running ones stay",
            body: &[
                "`kubectl cordon node-1` GETs the Node and sends `PATCH /api/v1/nodes/node-1`, a strategic merge patch `{\"spec\":{\"unschedulable\":true}}`, and prints `node/node-1 cordoned`.",
                "The [[nlc|node lifecycle controller]], not an admission plugin, then adds the [[taints|taint]] `node.kubernetes.io/unschedulable:NoSchedule` with a `timeAdded`. The [[scheduler|scheduler]]'s `NodeUnschedulable` filter now skips node-1 (`node(s) were unschedulable`), and `kubectl get nodes` shows `Ready,SchedulingDisabled`. Within 10 s the [[kubelet|kubelet]] records `NodeNotSchedulable`. Nothing running on node-1 moves.",
            ],
        },
        StepText {
            title: "Drain: every eviction at once",
            body: &[
                "`kubectl drain node-1 --ignore-daemonsets` cordons (`already cordoned`), lists the node's Pods with `fieldSelector=spec.nodeName=node-1`, and runs its filters in order: the `node-agent` Pod is DaemonSet-managed, so it is left alone with a warning (without the flag the drain would stop here, node cordoned, nothing evicted).",
                "Then it POSTs an `Eviction` for every other Pod at the same time, one goroutine each: not one by one. The first is accepted with `201`; the API server itself decrements the budget to 0 and records the Pod in `disruptedPods`, then deletes the Pod gracefully.",
            ],
        },
        StepText {
            title: "The budget says 429; kubectl waits 5 s",
            body: &[
                "The second eviction meets a budget with no disruption left: `429 Too Many Requests`, `Cannot evict pod as it would violate the pod's disruption budget.` kubectl prints the error, sleeps 5 s, and will try again. Meanwhile it GETs the evicted Pod every second until it is gone.",
                "The [[replicaset|ReplicaSet]] creates a replacement at once, and the scheduler binds it to node-2 or node-3: node-1 is cordoned.",
            ],
        },
        StepText {
            title: "The replacement is Ready; the budget lets the next one go",
            body: &[
                "When the replacement is Ready, the disruption controller counts six healthy Pods again and sets `disruptionsAllowed` to 1. kubectl's next attempt, 5 s after the first, prints `evicting pod` again and gets `201`.",
            ],
        },
        StepText {
            title: "Drained: only the DaemonSet's Pod is left",
            body: &[
                "When the last evicted Pod is gone kubectl prints `node/node-1 drained`. The `node-agent` Pod still runs on node-1: it tolerates `unschedulable`, and drain never evicts DaemonSet Pods. The node is ready for maintenance.",
            ],
        },
        StepText {
            title: "Uncordon",
            body: &[
                "`kubectl uncordon node-1` patches `{\"spec\":{\"unschedulable\":null}}`. The controller removes the taint, the kubelet records `NodeSchedulable`, and new Pods may land on node-1 again. Nothing moves back by itself: the Pods that left stay where they are.",
            ],
        },
    ],
};
