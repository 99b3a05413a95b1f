//! The words for link notices and for actions that make no sense now.

use crate::i18n::{Key, Lang};
use crate::link::{Notice, Problem};
use crate::sim::Refusal;

/// The text of a link notice.
pub fn notice_text(lang: Lang, n: &Notice) -> String {
    let (key, extra) = match &n.problem {
        Problem::UnknownChapter => (Key::NoticeUnknownChapter, String::new()),
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
        ];
        for r in &all {
            assert_eq!(refusal_text(Lang::En, r), r.to_string());
            for lang in Lang::ALL {
                assert!(refusal_text(lang, r).contains(&r.subject()), "{lang}: {r}");
            }
        }
    }
}
