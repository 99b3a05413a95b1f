//! The words for link notices and for actions that make no sense now.

use crate::i18n::{Key, Lang};
use crate::link::{Notice, Problem};
use crate::sim::Refusal;

/// Why a story of the site's could not be opened (`?story=ID`).
#[derive(Clone, Debug, PartialEq)]
pub enum StoryFailure {
    /// The site answered with this HTTP status (404: no such file).
    Missing { status: u16 },
    /// The request failed (the browser's reason).
    Unreachable(String),
    /// The file is not a story in the page's form, or not this one: each problem with its line.
    Broken(Vec<crate::story::Problem>),
    /// The page is the single-file `nodeline.html`, which fetches nothing.
    SingleFile,
}

/// The notices for a story that could not be opened: what happened, then each problem of a
/// broken file as `story check` prints it (`FILE:LINE: MESSAGE`).
pub fn story_failure_texts(lang: Lang, id: &str, path: &str, failure: &StoryFailure) -> Vec<String> {
    match failure {
        StoryFailure::Missing { status } => {
            vec![lang.fill(Key::NoticeStoryMissing, &[id, path, &format!("HTTP {status}")])]
        }
        StoryFailure::Unreachable(why) => vec![lang.fill(Key::NoticeStoryUnreachable, &[id, why])],
        StoryFailure::SingleFile => vec![lang.fill(Key::NoticeStorySingleFile, &[id])],
        StoryFailure::Broken(problems) => std::iter::once(lang.fill(Key::NoticeStoryBroken, &[id]))
            .chain(
                problems.iter().map(|p| lang.fill(Key::NoticeStoryProblem, &[path, &p.line.to_string(), &p.message])),
            )
            .collect(),
    }
}

/// The text of a link notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    let (key, extra) = match &n.problem {
        Problem::UnknownChapter => (Key::NoticeUnknownChapter, String::new()),
        Problem::BadStory => (Key::NoticeBadStory, String::new()),
        Problem::BadStep => (Key::NoticeBadStep, String::new()),
        Problem::StepOutOfRange { used } => (Key::NoticeStepOutOfRange, used.to_string()),
        Problem::BadFlag => (Key::NoticeBadFlag, String::new()),
        Problem::BadTime(_) => (Key::NoticeBadTime, String::new()),
        Problem::TimeTooLate => (Key::NoticeTimeTooLate, String::new()),
        Problem::BadAction(_) => (Key::NoticeBadAction, String::new()),
        Problem::BadSpeed => (Key::NoticeBadSpeed, String::new()),
        Problem::BadTheme => (Key::NoticeBadTheme, String::new()),
        Problem::BadLang => (Key::NoticeBadLang, String::new()),
        Problem::BadOrigin => (Key::NoticeBadOrigin, String::new()),
        Problem::BadProfile => (Key::NoticeBadProfile, String::new()),
        Problem::BadNodes => (Key::NoticeBadNodes, String::new()),
        Problem::NodesOutOfRange { used } => (Key::NoticeNodesOutOfRange, used.to_string()),
        Problem::NodesNotAFleet => (Key::NoticeNodesNotAFleet, String::new()),
        Problem::BadProgress => (Key::NoticeBadProgress, String::new()),
        Problem::BadShutdown(why) => (Key::NoticeBadShutdown, why.clone()),
        Problem::UnknownParam => (Key::NoticeUnknownParam, String::new()),
        Problem::Repeated => (Key::NoticeRepeated, String::new()),
    };
    lang.fill(key, &[&n.param, &n.value, &extra])
}

/// Why an action makes no sense now, in the reader's language.
pub fn refusal_text(lang: Lang, r: &Refusal) -> String {
    let key = match r {
        Refusal::NoSuchMachine(_) => Key::RefuseNoSuchMachine,
        Refusal::KubeletNotRunning(_) => Key::RefuseKubeletNotRunning,
        Refusal::KubeletAlreadyRunning(_) => Key::RefuseKubeletAlreadyRunning,
        Refusal::RuntimeAlreadyStopped(_) => Key::RefuseRuntimeAlreadyStopped,
        Refusal::RuntimeAlreadyRunning(_) => Key::RefuseRuntimeAlreadyRunning,
        Refusal::NetworkAlreadyCut(_) => Key::RefuseNetworkAlreadyCut,
        Refusal::NetworkNotCut(_) => Key::RefuseNetworkNotCut,
        Refusal::TooManyPods(_) => Key::RefuseTooManyPods,
        Refusal::TooManyMachines(_) => Key::RefuseTooManyMachines,
        Refusal::DuplicateExists(_) => Key::RefuseDuplicateExists,
        Refusal::NodeNotRegistered(_) => Key::RefuseNodeNotRegistered,
        Refusal::MachineCannotReach(_) => Key::RefuseMachineCannotReach,
        Refusal::OutOfServiceAlreadyTainted(_) => Key::RefuseOutOfServiceTainted,
        Refusal::OutOfServiceNotTainted(_) => Key::RefuseOutOfServiceNotTainted,
        Refusal::StatefulSetExists(_) => Key::RefuseStatefulSetExists,
        Refusal::DeploymentExists(_) => Key::RefuseDeploymentExists,
        Refusal::InvalidTaint(_) => Key::RefuseInvalidTaint,
        Refusal::NoSuchZone(_) => Key::RefuseNoSuchZone,
        Refusal::ZoneAlreadyCut(_) => Key::RefuseZoneAlreadyCut,
        Refusal::ZoneNotCut(_) => Key::RefuseZoneNotCut,
        Refusal::ControlPlaneAlreadyCut => Key::RefuseControlPlaneAlreadyCut,
        Refusal::ControlPlaneNotCut => Key::RefuseControlPlaneNotCut,
        Refusal::NoSuchPod(_) => Key::RefuseNoSuchPod,
        Refusal::PodNotRunning(_) => Key::RefusePodNotRunning,
        Refusal::PodAlreadyLeaking(_) => Key::RefusePodAlreadyLeaking,
        Refusal::PodNotLeaking(_) => Key::RefusePodNotLeaking,
        Refusal::NoPodRunning => Key::RefuseNoPodRunning,
    };
    lang.fill(key, &[&r.subject()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_refusals_read_as_the_simulation_says_them() {
        let all = [
            Refusal::NoSuchMachine("node-9".into()),
            Refusal::KubeletNotRunning("node-1".into()),
            Refusal::KubeletAlreadyRunning("node-1".into()),
            Refusal::RuntimeAlreadyStopped("node-1".into()),
            Refusal::RuntimeAlreadyRunning("node-1".into()),
            Refusal::NetworkAlreadyCut("node-1".into()),
            Refusal::NetworkNotCut("node-1".into()),
            Refusal::TooManyPods(24),
            Refusal::TooManyMachines(6),
            Refusal::DuplicateExists("node-1".into()),
            Refusal::NodeNotRegistered("node-3".into()),
            Refusal::MachineCannotReach("node-1".into()),
            Refusal::InvalidTaint("node-1/a:Sometimes".into()),
            Refusal::NoSuchZone("eu-west-1z".into()),
            Refusal::ZoneAlreadyCut("eu-west-1b".into()),
            Refusal::ZoneNotCut("eu-west-1b".into()),
            Refusal::ControlPlaneAlreadyCut,
            Refusal::ControlPlaneNotCut,
            Refusal::NoSuchPod("default/web-9".into()),
            Refusal::PodNotRunning("default/web-1".into()),
            Refusal::PodAlreadyLeaking("default/web-1".into()),
            Refusal::PodNotLeaking("default/web-1".into()),
            Refusal::NoPodRunning,
        ];
        for r in &all {
            assert_eq!(refusal_text(Lang::En, r), r.to_string());
            for lang in Lang::ALL {
                assert!(refusal_text(lang, r).contains(&r.subject()), "{lang}: {r}");
            }
        }
    }

    #[test]
    fn a_story_that_cannot_be_opened_says_why_and_where() {
        let path = "stories/x.story";
        let missing = story_failure_texts(Lang::En, "x", path, &StoryFailure::Missing { status: 404 });
        assert_eq!(
            missing,
            ["There is no story \"x\" on this site (stories/x.story: HTTP 404); showing the first chapter."]
        );
        let problem = crate::story::Problem { line: 7, column: 1, message: "duration: invalid duration".into() };
        for lang in Lang::ALL {
            let broken = story_failure_texts(lang, "x", path, &StoryFailure::Broken(vec![problem.clone()]));
            assert_eq!(broken.len(), 2, "{lang}");
            assert!(broken[0].contains("\"x\"") || broken[0].contains("「x」"), "{lang}: {}", broken[0]);
            assert_eq!(broken[1], "stories/x.story:7: duration: invalid duration", "{lang}");
        }
        let single = story_failure_texts(Lang::En, "x", path, &StoryFailure::SingleFile);
        assert!(single[0].starts_with("nodeline.html carries no story \"x\""), "{}", single[0]);
        let ja = story_failure_texts(Lang::Ja, "x", path, &StoryFailure::Unreachable("TypeError".into()));
        assert!(ja[0].contains("ストーリー「x」") && ja[0].contains("TypeError"), "{}", ja[0]);
    }
}
