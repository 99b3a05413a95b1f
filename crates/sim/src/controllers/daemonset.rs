//! The DaemonSet controller (`pkg/controller/daemon`): one Pod per node, pinned to it by a
//! required node affinity on `metadata.name` and placed by the scheduler, tolerating what
//! `AddOrUpdateDaemonPodTolerations` adds; and the DaemonSet's status. Its client is its own
//! (`ClientOrDie("daemon-set-controller")`, 20 requests a second, burst 30, its Events through
//! it): a sync stops at the first request without a token and goes on when the next comes.

use crate::apiserver::{ApiOp, TAINT_NOT_READY, TAINT_UNREACHABLE, controller_ref};
use crate::client::{ClientWake, Throttled};
use crate::ctx::Ctx;
use crate::events::Recorder;
use crate::objects::Text;
use crate::objects::{
    DaemonSet, DaemonSetSpec, DaemonSetStatus, LabelSelector, Object, ObjectMeta, ObjectReference, PodTemplateSpec,
    TemplateMeta, Toleration, pinned_to,
};
use crate::record::Actor;
use crate::workload::new_pod;

/// The DaemonSet the reader's `create-daemonset` applies: a node agent in `kube-system`.
pub(crate) const DAEMONSET_NAME: &str = "node-agent";
/// Its namespace.
pub(crate) const DAEMONSET_NAMESPACE: &str = "kube-system";

const ACTOR: Actor = Actor::DaemonSetController;
/// The Events' source component.
const COMPONENT: &str = "daemonset-controller";

/// The controller's state: the DaemonSet it manages, once created.
#[derive(Clone, Debug, Default)]
pub(crate) struct DaemonSetController {
    uid: Option<String>,
    recorder: Recorder,
    client: Throttled,
}

fn labels() -> std::collections::BTreeMap<String, String> {
    [("app".to_string(), DAEMONSET_NAME.to_string())].into_iter().collect()
}

/// The tolerations `util.AddOrUpdateDaemonPodTolerations` adds to every daemon Pod (no
/// `network-unavailable`: the agent does not use the host network).
fn daemon_tolerations() -> Vec<Toleration> {
    let t = |key: &'static str, effect: &'static str| Toleration {
        key: key.into(),
        operator: "Exists".into(),
        value: "".into(),
        effect: effect.into(),
        toleration_seconds: None,
    };
    vec![
        t(TAINT_NOT_READY, "NoExecute"),
        t(TAINT_UNREACHABLE, "NoExecute"),
        t("node.kubernetes.io/disk-pressure", "NoSchedule"),
        t("node.kubernetes.io/memory-pressure", "NoSchedule"),
        t("node.kubernetes.io/pid-pressure", "NoSchedule"),
        t("node.kubernetes.io/unschedulable", "NoSchedule"),
    ]
}

impl DaemonSetController {
    /// Whether the DaemonSet exists.
    pub(crate) fn exists(&self) -> bool {
        self.uid.is_some()
    }

    /// The reader's `kubectl apply` of the DaemonSet.
    pub(crate) fn create<T>(&mut self, ctx: &mut Ctx<'_, T>) {
        let template = new_pod(ObjectMeta::default(), Vec::new(), ctx.profile).spec;
        let ds = DaemonSet {
            kind: "DaemonSet",
            api_version: "apps/v1",
            metadata: ObjectMeta {
                name: DAEMONSET_NAME.into(),
                namespace: DAEMONSET_NAMESPACE.into(),
                labels: labels().into(),
                annotations: [("deprecated.daemonset.template.generation".to_string(), "1".to_string())]
                    .into_iter()
                    .collect(),
                ..ObjectMeta::default()
            },
            spec: DaemonSetSpec {
                selector: LabelSelector { match_labels: labels() },
                template: PodTemplateSpec {
                    metadata: TemplateMeta { creation_timestamp: None, labels: labels() },
                    spec: template,
                },
                update_strategy: serde_json::json!({ "type": "RollingUpdate", "rollingUpdate": { "maxUnavailable": 1, "maxSurge": 0 } }),
                revision_history_limit: 10,
            },
            status: DaemonSetStatus::default(),
        };
        if let Some(Object::DaemonSet(created)) = ctx.call(Actor::Kubectl, None, ApiOp::Create(ds.into())).ok() {
            self.uid = Some(created.metadata.uid.to_string());
        }
    }

    /// Input: the client has a token again: the sync goes on.
    pub(crate) fn on_wake(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        if self.client.woken(ctx.now) {
            self.on_change(ctx);
        }
    }

    /// Input: Nodes or Pods changed: a Pod for every node that has none, then the status, each
    /// request when the client has a token for it.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, ClientWake>) {
        let Some(uid) = self.uid.clone() else { return };
        let nodes: Vec<Text> = ctx.store().nodes.keys().cloned().collect();
        let owned = |ctx: &Ctx<'_, ClientWake>| -> Vec<std::sync::Arc<crate::objects::Pod>> {
            ctx.store()
                .pods
                .values()
                .filter(|p| p.controller().is_some_and(|o| o.uid == uid) && !p.is_terminating())
                .cloned()
                .collect()
        };
        let pods = owned(ctx);
        let mut missing = nodes.iter().filter(|n| !pods.iter().any(|p| p.pinned_node() == Some(n.as_str()))).count();
        for node in &nodes {
            if pods.iter().any(|p| p.pinned_node() == Some(node.as_str())) {
                continue;
            }
            if self.client.is_stopped() || !self.client.admit(ctx, || ClientWake) {
                break;
            }
            missing -= 1;
            let meta = ObjectMeta {
                generate_name: format!("{DAEMONSET_NAME}-").into(),
                namespace: DAEMONSET_NAMESPACE.into(),
                labels: labels().into(),
                owner_references: vec![controller_ref("apps/v1", "DaemonSet", DAEMONSET_NAME, &uid)].into(),
                ..ObjectMeta::default()
            };
            let mut pod = new_pod(meta, daemon_tolerations(), ctx.profile);
            pod.spec.affinity = Some(pinned_to(node));
            if let Some(Object::Pod(created)) = ctx.call(ACTOR, None, ApiOp::CreatePod(pod)).ok() {
                let reference = ObjectReference {
                    kind: "DaemonSet".into(),
                    namespace: DAEMONSET_NAMESPACE.into(),
                    name: DAEMONSET_NAME.into(),
                    uid: uid.as_str().into(),
                    api_version: "apps/v1".into(),
                    ..ObjectReference::default()
                };
                self.client.event(
                    &mut self.recorder,
                    ctx,
                    COMPONENT,
                    reference,
                    "Normal",
                    "SuccessfulCreate",
                    format!("Created pod: {}", created.metadata.name),
                    || ClientWake,
                );
            }
        }
        if missing == 0 {
            self.update_status(&owned(ctx), nodes.len() as i32, ctx);
        }
        self.client.write_events(&mut self.recorder, ctx, COMPONENT, || ClientWake);
        self.client.note(ACTOR, missing as u32, ctx);
    }

    /// `updateDaemonSetStatus`.
    fn update_status(
        &mut self,
        pods: &[std::sync::Arc<crate::objects::Pod>],
        desired: i32,
        ctx: &mut Ctx<'_, ClientWake>,
    ) {
        let Some(ds) = ctx.store().daemonsets.get(&(DAEMONSET_NAMESPACE.into(), DAEMONSET_NAME.into())).cloned() else {
            return;
        };
        let scheduled = pods.len() as i32;
        let ready = pods.iter().filter(|p| p.is_ready()).count() as i32;
        let positive = |n: i32| (n > 0).then_some(n);
        let status = DaemonSetStatus {
            current_number_scheduled: scheduled,
            number_misscheduled: 0,
            desired_number_scheduled: desired,
            number_ready: ready,
            observed_generation: ds.metadata.generation,
            updated_number_scheduled: positive(scheduled),
            number_available: positive(ready),
            number_unavailable: positive(desired - ready),
        };
        if status == ds.status {
            return;
        }
        if !self.client.admit(ctx, || ClientWake) {
            return;
        }
        let mut next = DaemonSet::clone(&ds);
        next.status = status;
        ctx.call(ACTOR, None, ApiOp::UpdateDaemonSetStatus(next));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::{Probe, paced};
    use crate::time::SimTime;

    /// A DaemonSet applied to 60 Nodes: its creates and their Events share the burst of 30,
    /// then a create goes every 50 ms; the status is written once every Pod is there.
    #[test]
    fn creates_wait_for_the_client_after_its_burst() {
        let mut probe = Probe::new();
        for i in 0..60 {
            probe.given_node(&format!("node-{i}"), Vec::new());
        }
        let mut ds = DaemonSetController::default();
        probe.input::<ClientWake>(|ctx| {
            ds.create(ctx);
            ds.on_change(ctx);
        });
        let sent = probe.run_timers::<ClientWake>(SimTime::MAX, |ctx| ds.on_wake(ctx));
        let posts: Vec<u64> = probe
            .log()
            .requests
            .iter()
            .filter(|r| r.actor == ACTOR && r.path.ends_with("/pods"))
            .map(|r| r.t.as_millis())
            .collect();
        // 15 creates and their 15 Events at once, then one create every 50 ms, the status after.
        let want: Vec<u64> = paced(0, 76, 30, 20.0)[15..].to_vec();
        assert_eq!(posts, want[..60]);
        let status = sent.iter().rev().find(|(_, m)| m == "PUT").expect("the status written");
        assert_eq!(status.0, want[60]);
    }
}
