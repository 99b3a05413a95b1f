//! The message catalogue: every user-facing string of the page, in every language.
//!
//! UI text is looked up by [`Key`]; each language is an exhaustive `match`, so a language that
//! misses a key does not compile. Chapter narration is a list of [`StepText`] per chapter and
//! language, compiled from the chapters' story files (`stories/ID.yaml`) into `chapters.rs`; its markup `[[target|words]]` links words to an element of the stage (hovering or
//! focusing them highlights it). Kubernetes identifiers (field names, reasons, messages, kubectl
//! output) are never translated: they are quoted in `` `backticks` `` and shown as code.

#[rustfmt::skip]
mod chapters;
mod en;
mod ja;
mod quiz_en;
mod quiz_ja;

use std::fmt;

use crate::sim::Chapter;

/// A language the page speaks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Ja,
}

impl Lang {
    /// Every language, in the order the language switch lists them.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The BCP 47 code (`en`, `ja`).
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language for a code such as `en`, `en-GB`, `EN`.
    pub fn from_code(code: &str) -> Option<Lang> {
        let primary = code.split(['-', '_']).next()?.to_ascii_lowercase();
        Lang::ALL.into_iter().find(|l| l.code() == primary)
    }

    /// The first supported language among the reader's preferences, else English.
    pub fn negotiate<'a>(preferences: impl IntoIterator<Item = &'a str>) -> Lang {
        preferences.into_iter().find_map(Lang::from_code).unwrap_or_default()
    }

    /// The language's name, in itself (for the language switch).
    pub fn endonym(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
        }
    }

    /// The text for `key`.
    pub fn text(self, key: Key) -> &'static str {
        match self {
            Lang::En => en::text(key),
            Lang::Ja => ja::text(key),
        }
    }

    /// The text for `key` with `{0}`, `{1}`, … replaced by `args`.
    pub fn fill(self, key: Key, args: &[&str]) -> String {
        fill(self.text(key), args)
    }

    /// A chapter's title, summary and steps.
    pub fn chapter(self, chapter: Chapter) -> &'static ChapterText {
        chapters::chapter(self, chapter)
    }

    /// The words of the question with this id (see [`crate::quiz`]).
    pub fn question(self, id: &str) -> Option<&'static QuestionText> {
        match self {
            Lang::En => quiz_en::question(id),
            Lang::Ja => quiz_ja::question(id),
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// Replaces `{0}`, `{1}`, … in `template`.
pub fn fill(template: &str, args: &[&str]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}').and_then(|close| after[..close].parse::<usize>().ok().map(|n| (n, close))) {
            Some((n, close)) => {
                out.push_str(args.get(n).copied().unwrap_or(""));
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// A chapter's text.
#[derive(Debug)]
pub struct ChapterText {
    pub title: &'static str,
    pub summary: &'static str,
    pub steps: &'static [StepText],
}

/// One step's text.
#[derive(Debug)]
pub struct StepText {
    pub title: &'static str,
    /// Paragraphs, with `[[target|words]]` links and `` `code` ``.
    pub body: &'static [&'static str],
}

/// A question's words (question mode, [`crate::quiz`]), with `` `code` `` as in narration and
/// `{0}`, `{1}`, … for the facts its derivation finds in the timeline.
#[derive(Debug)]
pub struct QuestionText {
    pub prompt: &'static str,
    /// One label per option of a choice question, or per event of an order question, in the
    /// question's order.
    pub options: &'static [&'static str],
    /// Why the answer is what it is, citing the setting that causes it.
    pub why: &'static str,
}

/// A piece of narration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Segment<'a> {
    Text(&'a str),
    /// A Kubernetes identifier, shown as code.
    Code(&'a str),
    /// Words that point at an element of the stage.
    Term {
        target: &'a str,
        words: &'a str,
    },
}

/// Splits narration markup into segments. Unbalanced markup is kept as text.
pub fn segments(paragraph: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut rest = paragraph;
    while !rest.is_empty() {
        let term = rest.find("[[");
        let code = rest.find('`');
        let next = match (term, code) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let Some(at) = next else {
            out.push(Segment::Text(rest));
            break;
        };
        if at > 0 {
            out.push(Segment::Text(&rest[..at]));
        }
        let tail = &rest[at..];
        if let Some(inner) = tail.strip_prefix("[[") {
            match inner.find("]]").map(|end| (&inner[..end], end)) {
                Some((body, end)) => {
                    let (target, words) = body.split_once('|').unwrap_or((body, body));
                    out.push(Segment::Term { target, words });
                    rest = &inner[end + 2..];
                }
                None => {
                    out.push(Segment::Text(tail));
                    break;
                }
            }
        } else {
            let inner = &tail[1..];
            match inner.find('`') {
                Some(end) => {
                    out.push(Segment::Code(&inner[..end]));
                    rest = &inner[end + 1..];
                }
                None => {
                    out.push(Segment::Text(tail));
                    break;
                }
            }
        }
    }
    out
}

/// Narration as plain text (markup removed), for the no-JavaScript fallback and screen readers.
pub fn plain(paragraph: &str) -> String {
    segments(paragraph)
        .into_iter()
        .map(|s| match s {
            Segment::Text(t) | Segment::Code(t) => t,
            Segment::Term { words, .. } => words,
        })
        .collect()
}

/// The stage elements narration can point at.
pub const TARGETS: &[&str] = &[
    "machine",
    "kubelet",
    "runtime",
    "containers",
    "network",
    "apiserver",
    "nlc",
    "scheduler",
    "eviction",
    "replicaset",
    "lease",
    "node",
    "pods",
    "conditions",
    "taints",
    "events",
];

macro_rules! keys {
    ($($(#[$doc:meta])* $key:ident,)*) => {
        /// Every UI string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($(#[$doc])* $key,)*
        }

        impl Key {
            /// Every key (tests check each language has them all and the page uses them all).
            pub const ALL: &'static [Key] = &[$(Key::$key,)*];

            /// The key's name, as written in the source.
            pub fn name(self) -> &'static str {
                match self {
                    $(Key::$key => stringify!($key),)*
                }
            }
        }
    };
}

keys! {
    AppTitle,
    Tagline,
    SkipToContent,
    ChapterNav,
    ChapterLabel,
    StepLabel,
    StepOf,
    PlayFromThisStep,
    /// The narration's disclosure button on narrow screens (the step's text, the Play-from link
    /// and the step list behind it).
    ReadStep,
    LinkCopied,
    StepNotReached,
    /// A step a fleet of another size than the story's does not reach: {0} nodes, {1} as
    /// written.
    StepNotAtThisSize,
    /// A link's step that does not happen: {0} the step, {1} why ([`Key::StepNotReached`] or
    /// [`Key::StepNotAtThisSize`]).
    NoticeStepMissing,
    PreviousStep,
    NextStep,
    Play,
    Pause,
    Replay,
    Speed,
    SkipQuiet,
    FastForwarding,
    Clock,
    Timeline,
    TimelineHelp,
    Requests,
    EventsTrack,
    Stage,
    StageDescription,
    Machine,
    KubeletRunning,
    KubeletStopped,
    MachinePoweredOff,
    VolumeAttachedHere,
    VolumeAttachingHere,
    VolumeUsedBy,
    StatefulSetIdentity,
    KubeletRestarting,
    RuntimeUp,
    RuntimeDown,
    CniNotReady,
    /// A machine's credentials on the stage, before its client certificate is issued.
    BootstrapOnly,
    BootstrapOnlyLabel,
    /// A current certificate's symlink and the file it points at.
    CertificateLink,
    NetworkOk,
    NetworkCut,
    ContainersRunning,
    NoContainers,
    ControlPlane,
    ApiServer,
    NodeLifecycleController,
    Scheduler,
    TaintEvictionController,
    ReplicaSetController,
    LeaseNamespace,
    LeaseRenewed,
    NoLease,
    NodeObject,
    NoNodeYet,
    Sandbox,
    SandboxHelp,
    ActingOn,
    KillKubelet,
    StartKubelet,
    StopRuntime,
    StartRuntime,
    CutNetwork,
    RestoreNetwork,
    CreatePod,
    CreateToleratingPod,
    CreateBestEffortPod,
    CreatePriorityPod,
    AddMachine,
    AddDuplicateMachine,
    LabelNodeRole,
    Cordon,
    Uncordon,
    Drain,
    CreatePdb,
    BudgetField,
    BudgetValue,
    BudgetRefused,
    CreateDaemonSet,
    CreateCache,
    ShutdownMachine,
    PowerOffMachine,
    DeleteNodeAction,
    DeletePodAction,
    LeakMemoryAction,
    StopLeakAction,
    ApproveCsrAction,
    DenyCsrAction,
    DeleteBootstrapTokenAction,
    DeleteAutoApproveBindingAction,
    LogsAction,
    ExecAction,
    TaintOutOfService,
    UntaintOutOfService,
    TaintNode,
    CreateStatefulSet,
    CutZone,
    RestoreZone,
    CutControlPlane,
    RestoreControlPlane,
    CutNodes,
    ActionUnavailable,
    ForkNotice,
    ResetSandbox,
    ResetSandboxStory,
    // the reader's story (view::account)
    AccountTitle,
    AccountDeparted,
    AccountHappened,
    AccountNext,
    AccountEarlier,
    AccountStory,
    AccountStoryHelp,
    AccountWritten,
    AccountWrittenHelp,
    AccountRepeated,
    AccountByYou,
    AccountByStory,
    AccountRefused,
    AccountRan,
    AccountOther,
    AccountKubeletStopped,
    AccountKubeletStarted,
    AccountRuntimeStopped,
    AccountRuntimeStarted,
    AccountNetworkCut,
    AccountNetworkRestored,
    AccountPodCreated,
    AccountBestEffortCreated,
    AccountPriorityPodCreated,
    AccountMemoryLeaking,
    AccountLeakStopped,
    AccountShutdown,
    AccountPoweredOff,
    AccountZoneCut,
    AccountZoneRestored,
    AccountNodesCut,
    AccountControlPlaneCut,
    AccountControlPlaneRestored,
    AccountNodeReady,
    AccountNodeUnknown,
    AccountNodeNotReady,
    AccountTaintAdded,
    AccountTaintRemoved,
    AccountNodeDeleted,
    AccountPodGone,
    AccountPodFailed,
    AccountMarkedForDeletion,
    AccountDeletionCancelled,
    AccountScheduled,
    AccountFailedScheduling,
    AccountKubectlPrinted,
    AccountZoneState,
    AccountMasterDisruption,
    AccountMasterDisruptionOver,
    AccountNextUnknown,
    AccountNextRuntimeDown,
    AccountNextReadyAgain,
    AccountNextCordoned,
    AccountNextEviction,
    AccountNextStuck,
    AccountNextPressureEvict,
    AccountNextPressureLeak,
    AccountNextPressureSoft,
    AccountNextPressureClears,
    AccountNextPending,
    AccountNextRetry,
    AccountNextDrainWaits,
    AccountNextMaster,
    AccountNextZoneUnknown,
    AccountNextZoneState,
    AccountNextZoneReviving,
    AccountNextZoneWriting,
    AccountNextZoneTaints,
    AccountNextZoneNoTaints,
    AccountNextZoneEvictions,
    AccountNextNothing,
    Inspector,
    TabNode,
    TabLease,
    TabPods,
    TabEvents,
    Conditions,
    ColType,
    ColStatus,
    ColLastHeartbeatTime,
    ColLastTransitionTime,
    ColReason,
    ColMessage,
    Taints,
    NoTaints,
    ColKey,
    ColEffect,
    ColTimeAdded,
    HolderIdentity,
    RenewTime,
    LeaseDuration,
    RenewedAgo,
    GraceCountdown,
    GracePassed,
    ColName,
    ColPhase,
    ColReady,
    ColNode,
    ColAge,
    ColPv,
    ColAttached,
    VolumeAttachments,
    NoPods,
    Memory,
    MemoryCapacity,
    MemoryAllocatable,
    MemoryHard,
    MemorySoft,
    MemorySoftValue,
    ColContainer,
    ColUsage,
    ColRequest,
    ColLimit,
    MemoryAboveRequest,
    MemoryWithinRequest,
    ColLastSeen,
    ColObject,
    NoEvents,
    NotesTitle,
    Dismiss,
    NoticeUnknownChapter,
    NoticeBadStory,
    NoticeStoryMissing,
    NoticeStoryUnreachable,
    NoticeStoryBroken,
    NoticeStorySingleFile,
    NoticeStoryProblem,
    StoryLabel,
    MoreStories,
    StoryEnglishOnly,
    NoticeBadStep,
    NoticeStepOutOfRange,
    NoticeBadFlag,
    NoticeBadTime,
    NoticeTimeTooLate,
    NoticeBadAction,
    NoticeBadSpeed,
    NoticeBadTheme,
    NoticeBadLang,
    NoticeBadOrigin,
    NoticeBadProfile,
    NoticeBadNodes,
    NoticeNodesOutOfRange,
    NoticeNodesNotAFleet,
    NoticeBadShutdown,
    ShutdownSettings,
    ShutdownApply,
    ShutdownHelp,
    ShutdownRefused,
    NoticeUnknownParam,
    NoticeRepeated,
    NoticeActionRejected,
    ReducedMotion,
    Shortcuts,
    ShortcutsTitle,
    ShortcutPlayPause,
    ShortcutPrevStep,
    ShortcutNextStep,
    ShortcutSlower,
    ShortcutFaster,
    ShortcutHelp,
    ShortcutClose,
    Close,
    Language,
    KubernetesVersion,
    ErrorTitle,
    ErrorBody,
    Reload,
    ChapterEnd,
    StoryEnd,
    PlayFromStep,
    StepsNav,
    StepsNavStory,
    InspectNode,
    ChangedLegend,
    EventsCapped,
    GracePeriodTitle,
    GraceExplain,
    GraceNextCheck,
    GraceNodeUnknown,
    MachineHostname,
    TimelineRegion,
    SpeedValue,
    StepMarkerTitle,
    /// A timeline mark that stands for several steps too close together to mark one by one.
    StepGroup,
    /// A step marker's title while the fleet's story is still computed up to it.
    StepOfStory,
    StepOfWritten,
    StepStoryOnly,
    StepPendingTitle,
    ShortcutsOnTimeline,
    ShortcutSeekSecond,
    ShortcutSeekTenSeconds,
    ShortcutSeekMinute,
    ShortcutSeekEnds,
    KeyCapSpace,
    KeyCapShift,
    KeyCapEsc,
    KeyCapPageUp,
    KeyCapPageDown,
    KeyCapHome,
    KeyCapEnd,
    TrackLegendKubelet,
    TrackLegendControllers,
    TrackLegendScheduler,
    TrackLegendKubectl,
    TrackLegendEviction,
    TrackLegendEvictionRefused,
    TrackLegendRoutine,
    TrackLegendTimeout,
    TrackLegendNormal,
    TrackLegendWarning,
    StagePart,
    OneContainerRunning,
    ControllerManager,
    IpamTtlControllers,
    PodGcControllers,
    KubectlClient,
    StoredObjects,
    LeaseObject,
    BudgetObject,
    LeaseStale,
    LastRequest,
    NoRequestYet,
    RequestWaiting,
    RequestTimeout,
    LinkCut,
    MoreItems,
    ShowAllPods,
    ShowFewerPods,
    RefuseNoSuchMachine,
    RefuseKubeletNotRunning,
    RefuseKubeletAlreadyRunning,
    RefuseRuntimeAlreadyStopped,
    RefuseRuntimeAlreadyRunning,
    RefuseNetworkAlreadyCut,
    RefuseNetworkNotCut,
    RefuseTooManyPods,
    RefuseTooManyMachines,
    RefuseDuplicateExists,
    RefuseNodeNotRegistered,
    RefuseMachineCannotReach,
    RefuseOutOfServiceTainted,
    RefuseOutOfServiceNotTainted,
    RefuseStatefulSetExists,
    RefuseDeploymentExists,
    RefuseInvalidTaint,
    RefuseNoSuchZone,
    RateStopped,
    ChartTitle,
    ChartLegend,
    ChartMax,
    ChartValues,
    ChartPoint,
    ChartPointName,
    ChartHelp,
    PodsMoved,
    PodsMovedSummary,
    RateEvery,
    ZoneSummary,
    ZoneStateNext,
    ZoneStateWriting,
    ZoneCounts,
    ZoneQueue,
    ZonePods,
    ClientWaiting,
    ReplicaSetClientWaiting,
    ClientIdle,
    MasterDisruption,
    FleetStage,
    FleetStageHelp,
    ControllerLog,
    FleetZone,
    FleetCount,
    AnnounceZoneState,
    RefuseZoneAlreadyCut,
    RefuseZoneNotCut,
    RefuseControlPlaneAlreadyCut,
    RefuseControlPlaneNotCut,
    RefuseNoSuchPod,
    RefusePodNotRunning,
    RefusePodAlreadyLeaking,
    RefuseNoPodRunning,
    /// The sandbox's Pod picker, for the memory actions.
    PodPick,
    RefusePodNotLeaking,
    LanguageSwitch,
    AnnounceDeparted,
    AnnounceNodeStatus,
    AnnouncePodEvicted,
    // embed and shipping
    NoScriptIntro,
    StaticPageIntro,
    StillLoading,
    StillFailed,
    // kubectl panel
    TabYaml,
    TabKubectl,
    TabRequests,
    YamlObject,
    YamlCompareWith,
    YamlNoCompare,
    YamlCreatedBy,
    YamlChangedBy,
    YamlChangedAt,
    YamlChangedLegend,
    YamlDiffTitle,
    YamlNoChanges,
    KubectlPromptLabel,
    KubectlRun,
    KubectlSuggestions,
    KubectlHelp,
    KubectlEmpty,
    /// After a `kubectl logs` the kubelet would have answered: nodeline has no container output.
    KubectlNoContainerOutput,
    /// After a `kubectl exec` the kubelet would have run: nodeline runs no commands.
    KubectlNoCommandRun,
    RequestsHelp,
    RequestEffect,
    // question mode
    QuizSwitch,
    QuizRegion,
    QuizQuestionOf,
    QuizCheck,
    QuizSkip,
    QuizContinue,
    QuizRight,
    QuizWrong,
    QuizAnswerWas,
    QuizSeconds,
    QuizTolerance,
    QuizEnterSeconds,
    QuizMoveUp,
    QuizMoveDown,
    QuizOrderHelp,
    QuizNodes,
    QuizPickOnStage,
    QuizProgress,
    QuizSummaryTitle,
    QuizSummaryTitleStory,
    QuizAllRight,
    QuizMissed,
    NoticeBadProgress,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fills_placeholders() {
        assert_eq!(fill("Step {0} of {1}", &["2", "6"]), "Step 2 of 6");
        assert_eq!(fill("{1}-{0}-{9}", &["a", "b"]), "b-a-");
        assert_eq!(fill("a {b} {", &[]), "a {b} {");
    }

    #[test]
    fn parses_narration_markup() {
        assert_eq!(
            segments("The [[kubelet|kubelet]] sends `POST /api/v1/nodes`."),
            vec![
                Segment::Text("The "),
                Segment::Term { target: "kubelet", words: "kubelet" },
                Segment::Text(" sends "),
                Segment::Code("POST /api/v1/nodes"),
                Segment::Text("."),
            ]
        );
        assert_eq!(segments("broken [[x and `y"), vec![Segment::Text("broken "), Segment::Text("[[x and `y")]);
        assert_eq!(plain("a [[node|Node]] `x`"), "a Node x");
    }

    #[test]
    fn every_chapter_has_text_for_every_step_and_only_known_targets() {
        for lang in Lang::ALL {
            for chapter in Chapter::ALL {
                let text = lang.chapter(chapter);
                assert_eq!(text.steps.len(), chapter.scenario().steps.len(), "{lang} {chapter}");
                for step in text.steps {
                    assert!(!step.title.is_empty());
                    for p in step.body {
                        for s in segments(p) {
                            if let Segment::Term { target, .. } = s {
                                assert!(TARGETS.contains(&target), "{lang} {chapter}: unknown target {target}");
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn every_key_has_text_in_every_language() {
        for lang in Lang::ALL {
            for key in Key::ALL {
                assert!(!lang.text(*key).is_empty(), "{lang} {}", key.name());
            }
        }
    }

    #[test]
    fn negotiates_languages() {
        assert_eq!(Lang::negotiate(["fr-FR", "en-GB"]), Lang::En);
        assert_eq!(Lang::negotiate(["ja-JP", "en-US"]), Lang::Ja);
        assert_eq!(Lang::negotiate(["de", "ja"]), Lang::Ja);
        assert_eq!(Lang::from_code("ja_JP"), Some(Lang::Ja));
        assert_eq!(Lang::negotiate([]), Lang::En);
        assert_eq!(Lang::from_code("EN"), Some(Lang::En));
        assert_eq!(Lang::from_code("xx"), None);
    }
}
