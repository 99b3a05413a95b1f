//! The PersistentVolume controller (`pkg/controller/volume/persistentvolume`, "persistent-volume-
//! binder", its Events from `persistentvolume-controller`) with the CSI driver's
//! external-provisioner, for the StatefulSet's claims. The class `standard-rwo` binds
//! `WaitForFirstConsumer`, so:
//!
//! 1. a new claim waits (`WaitForFirstConsumer`, or `WaitForPodScheduled` once a Pod that is not
//!    scheduled yet names it);
//! 2. the scheduler's VolumeBinding plugin picks a node and writes it on the claim
//!    (`volume.kubernetes.io/selected-node`; [`crate::controllers::scheduler`]);
//! 3. `provisionClaim` hands the claim to the external provisioner (`volume.kubernetes.io/
//!    storage-provisioner`) and says so (`ExternalProvisioning`, at every sync while it waits);
//! 4. the external-provisioner says `Provisioning`, calls CreateVolume, which takes a few seconds
//!    ([`provision_time`]), creates `pvc-<claim uid>` with its `claimRef` set and says
//!    `ProvisioningSucceeded`;
//! 5. the controller completes the bind as `bind()` does: the volume's phase `Bound`, the claim's
//!    `spec.volumeName` with the `bind-completed` and `bound-by-controller` annotations, then the
//!    claim's status `Bound`. The scheduler, polling every second, then binds the Pod.
//!
//! The controller syncs a claim once for each version its informer delivers (the 15 s resync is
//! not simulated). Its Events and the provision time draw from keyed generators, not the seeded
//! stream. `docs/kubernetes-notes.md` §12.

use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::ApiOp;
use crate::client::Throttled;
use crate::ctx::Ctx;
use crate::events::{Recorder, Source};
use crate::objects::{BIND_COMPLETED, CSI_DRIVER, Object, PersistentVolume, PersistentVolumeClaim, SELECTED_NODE};
use crate::record::Actor;
use crate::rng::Rng;
use crate::time::millis;
use crate::vecmap::VecMap;

const ACTOR: Actor = Actor::PersistentVolumeController;
/// The controller's Events' source.
const COMPONENT: &str = "persistentvolume-controller";
/// The external-provisioner's Events' source: `<provisioner>_<hostname>_<uuid>`
/// (`NewProvisionController`), the sidecar running on the control plane.
pub const PROVISIONER_COMPONENT: &str = "pd.csi.storage.gke.io_control-plane_5b0f7d9e-3c41-4a8e-9f26-d1c84e7a0b53";
/// The annotations the controller sets on a claim it hands to an external provisioner.
const PROVISIONER_ANNOTATIONS: [&str; 2] =
    ["volume.beta.kubernetes.io/storage-provisioner", "volume.kubernetes.io/storage-provisioner"];

/// The controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PersistentVolumeTimer {
    /// The external-provisioner's CreateVolume call for the claim `(namespace, name)` returned.
    Provisioned(String, String),
    /// The controller's client has a token again.
    Client,
}

/// How long the CSI driver's CreateVolume takes for a claim (a GCE persistent disk: 2 to 6 s,
/// an inference), from a generator keyed by the run's seed and the claim's uid, so that the
/// seeded stream's draws do not move.
pub fn provision_time(seed: u64, claim_uid: &str) -> Duration {
    Rng::keyed(&["csi-provisioner", &seed.to_string(), claim_uid]).between(PROVISION_MIN, PROVISION_MAX)
}

/// The shortest CreateVolume.
pub const PROVISION_MIN: Duration = millis(2_000);
/// The longest CreateVolume.
pub const PROVISION_MAX: Duration = millis(6_000);

/// The controller's (and the provisioner's) state.
#[derive(Clone, Debug)]
pub(crate) struct PersistentVolumeController {
    /// The run's seed (keys the provision times).
    seed: u64,
    /// The last version of each claim `(namespace, name)` synced.
    synced: VecMap<(String, String), u64>,
    /// Claims (by uid) the external-provisioner is creating a volume for.
    provisioning: VecMap<String, ()>,
    recorder: Recorder,
    provisioner: Recorder,
    /// The controller's client (`ClientOrDie("persistent-volume-binder")`, 20 requests a second,
    /// burst 30): a claim is synced when a token is there, its writes and Events taking theirs.
    client: Throttled,
}

impl PersistentVolumeController {
    /// The controller of a run with this seed.
    pub(crate) fn new(seed: u64) -> PersistentVolumeController {
        PersistentVolumeController {
            seed,
            synced: VecMap::default(),
            provisioning: VecMap::default(),
            recorder: Recorder::default(),
            provisioner: Recorder::default(),
            client: Throttled::default(),
        }
    }

    /// Input: claims, volumes or Pods changed: every claim version not synced yet is synced
    /// (by the controller, then by the external-provisioner), until none is left.
    pub(crate) fn on_change(&mut self, ctx: &mut Ctx<'_, PersistentVolumeTimer>) {
        // Each pass syncs what the last one wrote; a claim is written at most a few times.
        for _ in 0..8 {
            let pending: Vec<_> = ctx
                .store()
                .claims
                .values()
                .filter(|c| self.synced.get(&key(c)) != Some(&c.metadata.resource_version))
                .cloned()
                .collect();
            if pending.is_empty() {
                return;
            }
            for claim in pending {
                if !self.client.ready(ctx, || PersistentVolumeTimer::Client) {
                    return;
                }
                let first = !self.synced.contains_key(&key(&claim));
                self.synced.insert(key(&claim), claim.metadata.resource_version);
                self.sync_claim(ctx, &claim, first);
                if let Some(current) = ctx.store().claims.get(&key(&claim)).cloned() {
                    self.provisioner_sync(ctx, &current);
                }
            }
        }
    }

    /// Input: one of the controller's timers.
    pub(crate) fn on_timer(&mut self, timer: PersistentVolumeTimer, ctx: &mut Ctx<'_, PersistentVolumeTimer>) {
        match timer {
            PersistentVolumeTimer::Client => {
                if self.client.woken(ctx.now) {
                    self.on_change(ctx);
                }
            }
            PersistentVolumeTimer::Provisioned(namespace, name) => {
                let Some(claim) = ctx.store().claims.get(&(namespace, name)).cloned() else { return };
                self.provisioning.remove(&*claim.metadata.uid);
                let pv = PersistentVolume::provisioned_for(&claim, CSI_DRIVER);
                let pv_name = pv.metadata.name.clone();
                if ctx.call(Actor::CsiProvisioner, None, ApiOp::Create(pv.into())).ok().is_none() {
                    return;
                }
                let message = format!("Successfully provisioned volume {pv_name}");
                let source = Source::Controller(PROVISIONER_COMPONENT);
                self.provisioner.event_keyed(
                    ctx,
                    source,
                    claim.reference(),
                    "Normal",
                    "ProvisioningSucceeded",
                    message,
                );
                // The volume informer's add: `syncVolume` finds the claim unbound and syncs it.
                self.sync_claim(ctx, &claim, false);
                self.on_change(ctx);
            }
        }
    }

    /// `syncClaim`.
    fn sync_claim(&mut self, ctx: &mut Ctx<'_, PersistentVolumeTimer>, claim: &PersistentVolumeClaim, first: bool) {
        if !claim.spec.volume_name.is_empty() {
            if claim.status.phase != "Bound" {
                let mut wanted = PersistentVolumeClaim::clone(claim);
                wanted.status = claim.bound_status();
                self.client.also(1, ctx);
                ctx.call(ACTOR, None, ApiOp::UpdateClaimStatus(wanted));
            }
            return;
        }
        // `findBestMatchForClaim`: the volume provisioned for it (its claimRef names the claim).
        let volume = ctx.store().volumes.values().find(|v| v.spec.claim_ref.uid == claim.metadata.uid).cloned();
        if let Some(volume) = volume {
            self.bind(ctx, &volume, claim);
            return;
        }
        if !claim.metadata.annotations.contains_key(SELECTED_NODE) {
            // `emitEventForUnboundDelayBindingClaim`. The claim's first sync is its informer's
            // add, which comes before the Pod the StatefulSet controller creates next.
            let pods: Vec<String> = if first {
                Vec::new()
            } else {
                let store = ctx.store();
                store
                    .pods
                    .values()
                    .filter(|p| p.spec.node_name.is_empty() && p.metadata.namespace == claim.metadata.namespace)
                    .filter(|p| p.claim_names().any(|c| c == claim.metadata.name))
                    .map(|p| p.metadata.name.to_string())
                    .collect()
            };
            let (reason, message) = match pods.as_slice() {
                [] => ("WaitForFirstConsumer", "waiting for first consumer to be created before binding".to_string()),
                [one] => ("WaitForPodScheduled", format!("waiting for pod {one} to be scheduled")),
                many => ("WaitForPodScheduled", format!("waiting for pods {} to be scheduled", many.join(","))),
            };
            let source = Source::Controller(COMPONENT);
            self.client.also(1, ctx);
            self.recorder.event_keyed(ctx, source, claim.reference(), "Normal", reason, message);
            return;
        }
        // `provisionClaim` → `provisionClaimOperationExternal`: `setClaimProvisioner` (a write
        // only when the annotations are missing), then the Event, at every sync.
        let mut claim = Arc::new(claim.clone());
        if !claim.metadata.annotations.contains_key(PROVISIONER_ANNOTATIONS[1]) {
            let mut wanted = PersistentVolumeClaim::clone(&claim);
            for a in PROVISIONER_ANNOTATIONS {
                wanted.metadata.annotations.insert(a.into(), CSI_DRIVER.into());
            }
            self.client.also(1, ctx);
            match ctx.call(ACTOR, None, ApiOp::UpdateClaim(wanted)).ok() {
                Some(Object::PersistentVolumeClaim(c)) => claim = c,
                _ => return,
            }
        }
        let message = format!(
            "Waiting for a volume to be created either by the external provisioner '{CSI_DRIVER}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered."
        );
        let source = Source::Controller(COMPONENT);
        self.client.also(1, ctx);
        self.recorder.event_keyed(ctx, source, claim.reference(), "Normal", "ExternalProvisioning", message);
    }

    /// The external-provisioner's claim worker (`shouldProvision`, then `provisionClaimOperation`):
    /// a claim handed to this driver, with its node selected, no volume yet and none being made.
    fn provisioner_sync(&mut self, ctx: &mut Ctx<'_, PersistentVolumeTimer>, claim: &PersistentVolumeClaim) {
        let annotations = &claim.metadata.annotations;
        let ours = annotations.get(PROVISIONER_ANNOTATIONS[1]).is_some_and(|p| p == CSI_DRIVER);
        if !ours || !annotations.contains_key(SELECTED_NODE) || !claim.spec.volume_name.is_empty() {
            return;
        }
        let uid = claim.metadata.uid.clone();
        if self.provisioning.contains_key(&*uid) || ctx.store().volumes.contains_key(&format!("pvc-{uid}")) {
            return;
        }
        self.provisioning.insert(uid.to_string(), ());
        let message = format!(
            "External provisioner is provisioning volume for claim \"{}/{}\"",
            claim.metadata.namespace, claim.metadata.name
        );
        let source = Source::Controller(PROVISIONER_COMPONENT);
        self.provisioner.event_keyed(ctx, source, claim.reference(), "Normal", "Provisioning", message);
        let timer =
            PersistentVolumeTimer::Provisioned(claim.metadata.namespace.to_string(), claim.metadata.name.to_string());
        ctx.after(provision_time(self.seed, &uid), timer);
    }

    /// `bind`: the volume's phase, the claim's volumeName, the claim's phase.
    fn bind(
        &mut self,
        ctx: &mut Ctx<'_, PersistentVolumeTimer>,
        volume: &PersistentVolume,
        claim: &PersistentVolumeClaim,
    ) {
        if volume.status.phase != "Bound" {
            let mut wanted = PersistentVolume::clone(volume);
            wanted.status.phase = "Bound".into();
            self.client.also(1, ctx);
            if ctx.call(ACTOR, None, ApiOp::UpdateVolumeStatus(wanted)).ok().is_none() {
                return;
            }
        }
        let mut claim = Arc::new(claim.clone());
        if claim.spec.volume_name.is_empty() {
            let mut wanted = PersistentVolumeClaim::clone(&claim);
            wanted.spec.volume_name = volume.metadata.name.to_string();
            wanted.metadata.annotations.insert(BIND_COMPLETED.into(), "yes".into());
            wanted.metadata.annotations.insert("pv.kubernetes.io/bound-by-controller".into(), "yes".into());
            self.client.also(1, ctx);
            match ctx.call(ACTOR, None, ApiOp::UpdateClaim(wanted)).ok() {
                Some(Object::PersistentVolumeClaim(c)) => claim = c,
                _ => return,
            }
        }
        let mut wanted = PersistentVolumeClaim::clone(&claim);
        wanted.status = claim.bound_status();
        self.client.also(1, ctx);
        ctx.call(ACTOR, None, ApiOp::UpdateClaimStatus(wanted));
    }
}

/// A claim's `(namespace, name)`.
fn key(claim: &PersistentVolumeClaim) -> (String, String) {
    (claim.metadata.namespace.to_string(), claim.metadata.name.to_string())
}
