//! English.

use super::Key;

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
        Key::StepNotAtThisSize => {
            "This step does not happen with {0} nodes: the story was written for {1}, and a fleet of this size does not reach it."
        }
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
        Key::NoticeBadNodes => {
            "\"{1}\" is not a number of nodes ({0}: 3 to 1000); the fleet keeps its own size (150 in the fleet chapter)."
        }
        Key::NoticeNodesOutOfRange => "A fleet of {1} nodes is not possible ({0}: 3 to 1000); using {2}.",
        Key::NoticeStepMissing => {
            "The link's step {0} does not happen here, so the story starts from the beginning. {1}"
        }
        Key::NoticeNodesNotAFleet => {
            "Only a fleet's size can be set, and this is not a fleet: its machines are as written ({0}={1} ignored)."
        }
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
