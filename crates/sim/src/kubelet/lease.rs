//! The node Lease controller: renew every 10 s (`retryUpdateLease`, five tries, a conflict
//! re-reads), and `backoffEnsureLease` to create the Lease when it is missing.

use crate::strings::cat;
use std::sync::Arc;
use std::time::Duration;

use crate::apiserver::{Answer, ApiOp, NODE_LEASE_NAMESPACE};
use crate::ctx::{API_SERVER, Ctx, Reply};
use crate::objects::{Lease, LeaseSpec, MicroTime, Object, OwnerReference};
use crate::record::LeaseVersion;
use crate::shared::Shared;
use crate::time::{format_go_duration, millis, secs};

use super::{HEARTBEAT_JITTER, Host, Kubelet, KubeletTimer, LEASE_MAX_UPDATE_RETRIES, MachineTimer};

/// `"failed to update lease using latest lease, fallback to ensure lease"`: an `Info` line in
/// 1.34 (`klog.FromContext(ctx).Info`), the controller falling back to its slow path.
const FALLBACK: &str =
    "\"failed to update lease using latest lease, fallback to ensure lease\" err=\"failed 5 attempts to update lease\"";

impl Kubelet {
    pub(super) fn next_lease_sync(&mut self, ctx: &mut Ctx<'_, MachineTimer>) {
        let d = {
            let d = ctx.settings.lease_renew_interval();
            ctx.rng.jitter(d, HEARTBEAT_JITTER)
        };
        self.after(ctx, d, KubeletTimer::LeaseSync);
    }

    /// The lease controller's `sync`.
    pub(super) fn lease_sync(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        match self.lease.clone() {
            Some(base) => self.lease_update(h, ctx, 0, base),
            None => self.lease_ensure(h, ctx, false),
        }
    }

    /// The owner reference to the kubelet's Node (`SetNodeOwnerFunc`), which needs a GET.
    pub(super) fn node_owner(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
    ) -> Result<OwnerReference, ()> {
        let host = h.hostname.clone();
        match h.call_heartbeat(ctx, ApiOp::GetNode(host.to_string())) {
            Reply::Ok(Object::Node(node)) => Ok(OwnerReference {
                api_version: "v1".into(),
                kind: "Node".into(),
                name: host.to_string(),
                uid: node.metadata.uid.to_string(),
                controller: None,
                block_owner_deletion: None,
            }),
            _ => {
                h.log(ctx, format!(
                    "\"Failed to get node when trying to set owner ref to the node lease\" err=\"nodes \\\"{host}\\\" not found\" node=\"{host}\""
                ));
                Err(())
            }
        }
    }

    /// One PUT of `retryUpdateLease`.
    pub(super) fn lease_update(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        n: u8,
        read: LeaseVersion,
    ) {
        let renew_time = MicroTime(ctx.wall());
        // (A renewal changes only renewTime and the resourceVersion: these fields are `base`'s.)
        let duration_kept = !ctx.profile.lease_duration_reasserted()
            || read.base.spec.lease_duration_seconds == Some(ctx.settings.node_lease_duration_seconds as i32);
        let op = if duration_kept && !read.base.metadata.owner_references.is_empty() {
            // Only renewTime changes (every renewal but the first after a start): nothing to build.
            ApiOp::RenewLease { read, renew_time, slot: self.lease_slot }
        } else {
            let base = read.lease();
            let mut lease = Lease::clone(&base);
            lease.spec.renew_time = Some(renew_time);
            if ctx.profile.lease_duration_reasserted() {
                lease.spec.lease_duration_seconds = Some(ctx.settings.node_lease_duration_seconds as i32);
            }
            if lease.metadata.owner_references.is_empty() {
                match self.node_owner(h, ctx) {
                    Ok(owner) => lease.metadata.owner_references = vec![owner].into(),
                    Err(()) => {
                        h.log(ctx, "\"Failed to prepare lease\"".into());
                        self.next_lease_sync(ctx);
                        return;
                    }
                }
            }
            ApiOp::UpdateLease { lease: Arc::new(lease), base }
        };
        let answer = match h.send_heartbeat(ctx, op) {
            Ok(Answer::Renewed(stored, slot)) => {
                self.lease_slot = slot;
                Ok(stored)
            }
            Ok(Answer::Object(Object::Lease(stored))) => Ok(LeaseVersion::whole(stored)),
            Ok(Answer::Object(_)) => unreachable!("PUT lease returns a Lease"),
            Err(reply) => Err(reply),
        };
        match answer {
            Ok(stored) => {
                let k = &mut *self;
                k.lease = Some(stored);
                k.lease_sleep = millis(100);
                self.next_lease_sync(ctx);
            }
            Err(Reply::Err(status)) if status.code == 409 => {
                h.log(ctx, format!("\"Failed to update lease\" err=\"{}\"", status.message.replace('"', "\\\"")));
                // A conflict re-reads the Lease and tries again at once, within the same 5 tries.
                if n + 1 < LEASE_MAX_UPDATE_RETRIES
                    && let Reply::Ok(Object::Lease(fresh)) =
                        h.call_heartbeat(ctx, ApiOp::GetLease(h.hostname.to_string()))
                {
                    let fresh = LeaseVersion::whole(fresh);
                    self.lease = Some(fresh.clone());
                    return self.lease_update(h, ctx, n + 1, fresh);
                }
                self.lease_gave_up(h, ctx);
            }
            Err(Reply::Timeout) => {
                // The PUT returns its error when the client's timeout runs out: logged then.
                let mut lines = vec![cat!(
                    "\"Failed to update lease\" err=\"Put \\\"",
                    API_SERVER,
                    "/apis/coordination.k8s.io/v1/namespaces/",
                    NODE_LEASE_NAMESPACE,
                    "/leases/",
                    h.hostname,
                    "?timeout=10s\\\": context deadline exceeded\""
                )];
                let next = if n + 1 < LEASE_MAX_UPDATE_RETRIES {
                    KubeletTimer::LeaseTry(n + 1)
                } else {
                    lines.push(FALLBACK.into());
                    self.lease_sleep = millis(100);
                    KubeletTimer::LeaseEnsure { then_update: true }
                };
                self.timed_out(ctx, ctx.settings.heartbeat_timeout(), lines, Some((Duration::ZERO, next)));
            }
            Err(Reply::Err(status)) => {
                h.log(ctx, format!("\"Failed to update lease\" err=\"{}\"", status.message.replace('"', "\\\"")));
                if n + 1 < LEASE_MAX_UPDATE_RETRIES {
                    self.after(ctx, Duration::ZERO, KubeletTimer::LeaseTry(n + 1));
                } else {
                    self.lease_gave_up(h, ctx);
                }
            }
            Err(Reply::Ok(_)) => unreachable!("a failure is not an object"),
        }
    }

    pub(super) fn lease_gave_up(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        h.log(ctx, FALLBACK.into());
        self.lease_sleep = millis(100);
        self.after(ctx, Duration::ZERO, KubeletTimer::LeaseEnsure { then_update: true });
    }

    /// One attempt of `backoffEnsureLease`: GET the Lease, create it if missing.
    pub(super) fn lease_ensure(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, then_update: bool) {
        let host = h.hostname.clone();
        match h.call_heartbeat(ctx, ApiOp::GetLease(host.to_string())) {
            Reply::Ok(Object::Lease(lease)) => {
                let lease = LeaseVersion::whole(lease);
                self.lease = Some(lease.clone());
                self.lease_update(h, ctx, 0, lease);
            }
            Reply::Err(status) if status.code == 404 => {
                let Ok(owner) = self.node_owner(h, ctx) else {
                    // No Node (yet, or any more): skip this round, try again at the next tick,
                    // with no lease to update ("we simply not create it this time").
                    self.lease = None;
                    self.next_lease_sync(ctx);
                    return;
                };
                let mut lease = Lease::new(NODE_LEASE_NAMESPACE, &host);
                lease.metadata.owner_references = vec![owner].into();
                lease.spec = LeaseSpec {
                    holder_identity: Some(host.to_string()),
                    lease_duration_seconds: Some(ctx.settings.node_lease_duration_seconds as i32),
                    renew_time: Some(MicroTime(ctx.wall())),
                    ..LeaseSpec::default()
                };
                match h.call_heartbeat(ctx, ApiOp::CreateLease(lease)) {
                    Reply::Ok(Object::Lease(stored)) => {
                        self.lease = Some(LeaseVersion::whole(stored));
                        self.next_lease_sync(ctx);
                    }
                    other => self.lease_ensure_failed(h, ctx, then_update, matches!(other, Reply::Timeout)),
                }
            }
            Reply::Timeout => self.lease_ensure_failed(h, ctx, then_update, true),
            _ => self.lease_ensure_failed(h, ctx, then_update, false),
        }
    }

    pub(super) fn lease_ensure_failed(
        &mut self,
        h: &mut Shared<Host>,
        ctx: &mut Ctx<'_, MachineTimer>,
        then_update: bool,
        timed_out: bool,
    ) {
        let k = &mut *self;
        let sleep = (k.lease_sleep * 2).min(secs(7));
        k.lease_sleep = sleep;
        let host = h.hostname.clone();
        let line = cat!(
            "\"Failed to ensure lease exists, will retry\" err=\"Get \\\"",
            API_SERVER,
            "/apis/coordination.k8s.io/v1/namespaces/",
            NODE_LEASE_NAMESPACE,
            "/leases/",
            host,
            "?timeout=10s\\\": context deadline exceeded\" interval=\"",
            format_go_duration(sleep),
            "\""
        );
        let next = KubeletTimer::LeaseEnsure { then_update };
        if timed_out {
            // Logged when the GET's (or the POST's) timeout runs out, then the backoff.
            self.timed_out(ctx, ctx.settings.heartbeat_timeout(), vec![line], Some((sleep, next)));
        } else {
            h.log(ctx, line);
            self.after(ctx, sleep, next);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::machine::MachineSpec;
    use crate::objects::Node;
    use crate::profile::Profile;
    use crate::testkit::{Probe, matches};

    #[test]
    fn the_lease_loop_creates_renews_and_retries() {
        // (the Node exists, the Lease exists, the network is cut), then what one `sync` does.
        let cases: Vec<(bool, bool, bool, Vec<&str>)> = vec![
            (
                false,
                false,
                false,
                vec![
                    "GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1 -> 404",
                    "GET /api/v1/nodes/node-1 -> 404",
                    "timer +10.*s Kubelet { generation: 1, timer: LeaseSync }",
                ],
            ),
            (
                true,
                false,
                false,
                vec![
                    "GET /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1 -> 404",
                    "GET /api/v1/nodes/node-1 -> 200",
                    "POST /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases -> 201",
                    "timer +10.*s Kubelet { generation: 1, timer: LeaseSync }",
                ],
            ),
            (
                true,
                true,
                false,
                vec![
                    "PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1 -> 200",
                    "timer +10.*s Kubelet { generation: 1, timer: LeaseSync }",
                ],
            ),
            (
                true,
                true,
                true,
                vec![
                    "PUT /apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1 -> timeout",
                    "timer +10s Kubelet { generation: 1, timer: TimedOut(*context deadline exceeded\\\"\"], then: Some((0ns, LeaseTry(1))) }) }",
                ],
            ),
        ];
        for (node, lease, cut, want) in cases {
            let mut probe = Probe::new();
            let mut host = Shared::new(Host::new(&MachineSpec::new("node-1"), 0, Profile::V1_34, probe.rng()));
            let mut kubelet = Kubelet::new(probe.now, 1, crate::flowcontrol::KUBELET);
            if node {
                probe.given(ApiOp::CreateNode(Node::new("node-1")));
            }
            if lease {
                // The kubelet's first sync creates it.
                probe.input(|ctx| kubelet.lease_sync(&mut host, ctx));
            }
            host.network_cut = cut;
            let got = probe.input(|ctx| kubelet.lease_sync(&mut host, ctx));
            assert!(matches(&got, &want), "node {node}, lease {lease}, cut {cut}: {got:#?}");
        }
    }
}
