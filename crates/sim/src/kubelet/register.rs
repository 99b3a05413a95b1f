//! Registration: `registerWithAPIServer`, with its backoff, and the 409 path that adopts an
//! existing Node (`tryRegisterWithAPIServer`).

use std::sync::Arc;

use crate::apiserver::ApiOp;
use crate::ctx::{Client, Ctx, DIAL_TIMEOUT, Reply};
use crate::objects::{Node, Object, StringMap};
use crate::record::Method;
use crate::shared::Shared;
use crate::time::secs;

use super::{Host, Kubelet, KubeletTimer, MachineTimer};

impl Kubelet {
    /// The Node the kubelet registers (`initialNode`).
    pub(super) fn initial_node(
        &self,
        h: &Host,
        ctx: &Ctx<'_, MachineTimer>,
    ) -> (Node, Vec<(&'static str, &'static str, String)>) {
        let host = &h.hostname;
        let mut node = Node::new(host);
        for (k, v) in [
            ("beta.kubernetes.io/arch", "amd64"),
            ("beta.kubernetes.io/os", "linux"),
            ("kubernetes.io/arch", "amd64"),
            ("kubernetes.io/hostname", host.as_str()),
            ("kubernetes.io/os", "linux"),
        ] {
            node.metadata.labels.insert(k.into(), v.into());
        }
        for (k, v) in h.node_labels.iter() {
            node.metadata.labels.insert(k.clone(), v.clone());
        }
        // The annotation every kubelet sets: one map shared by every new Node (a map of one
        // entry was a 500-byte B-tree leaf for each of a fleet's Nodes).
        static ANNOTATIONS: std::sync::LazyLock<StringMap> = std::sync::LazyLock::new(|| {
            [("volumes.kubernetes.io/controller-managed-attach-detach".to_string(), "true".to_string())]
                .into_iter()
                .collect()
        });
        if node.metadata.annotations.is_empty() {
            node.metadata.annotations = ANNOTATIONS.clone();
        } else {
            node.metadata
                .annotations
                .insert("volumes.kubernetes.io/controller-managed-attach-detach".into(), "true".into());
        }
        self.compute_status(h, ctx, &node)
    }

    /// One attempt of `registerWithAPIServer`.
    pub(super) fn register(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>) {
        let (node, events) = self.initial_node(h, ctx);
        self.emit(h, ctx, events);
        let host = node.metadata.name.clone();
        h.log(ctx, format!("\"Attempting to register node\" node=\"{host}\""));
        match self.call(h, ctx, ApiOp::CreateNode(node.clone())) {
            Reply::Ok(Object::Node(_)) => {
                h.log(ctx, format!("\"Successfully registered node\" node=\"{host}\""));
                // The informer has not seen the new Node yet: the status update's first try
                // misses it in the lister, and the next one GETs it.
                self.cold.registered = true;
                self.status_try(h, ctx, 0);
            }
            Reply::Err(status) if status.reason == "AlreadyExists" => {
                // tryRegisterWithAPIServer: adopt the existing Node, reconcile a few fields.
                match self.call(h, ctx, ApiOp::GetNode(host.to_string())) {
                    Reply::Ok(Object::Node(existing)) => {
                        h.log(ctx, format!("\"Node was previously registered\" node=\"{host}\""));
                        let mut wanted = Node::clone(&existing);
                        for (k, v) in &node.metadata.labels {
                            wanted.metadata.labels.insert(k.clone(), v.clone());
                        }
                        for (k, v) in &node.metadata.annotations {
                            wanted.metadata.annotations.insert(k.clone(), v.clone());
                        }
                        if wanted.status.capacity.is_empty() {
                            wanted.status.capacity = node.status.capacity.clone();
                            wanted.status.allocatable = node.status.allocatable.clone();
                        }
                        let mut cache = existing.clone();
                        if wanted != *existing
                            && let Reply::Ok(Object::Node(n)) =
                                self.call(h, ctx, ApiOp::PatchNodeStatus { base: existing, wanted: Arc::new(wanted) })
                        {
                            cache = n;
                        }
                        h.log(ctx, format!("\"Successfully registered node\" node=\"{host}\""));
                        let k = &mut *self;
                        k.cold.registered = true;
                        k.node_cache = Some(cache);
                        self.status_try(h, ctx, 0);
                    }
                    _ => self.register_failed(h, ctx, "error getting existing node"),
                }
            }
            Reply::Err(status) => {
                let why = status.message.clone();
                self.register_failed(h, ctx, &why);
            }
            Reply::Timeout => {
                let err = Client::Main.error(Method::Post, "/api/v1/nodes", "");
                self.register_failed(h, ctx, &err);
            }
            Reply::Ok(_) => unreachable!("creating a Node returns a Node"),
        }
    }

    pub(super) fn register_failed(&mut self, h: &mut Shared<Host>, ctx: &mut Ctx<'_, MachineTimer>, err: &str) {
        let host = h.hostname.clone();
        let line =
            format!("\"Unable to register node with API server\" err=\"{}\" node=\"{host}\"", err.replace('"', "\\\""));
        let cut = h.network_cut;
        let k = &mut *self;
        let sleep = k.cold.register_sleep;
        k.cold.register_sleep = (sleep * 2).min(secs(7));
        if cut {
            // A request to an unreachable API server returns its error when the dial timeout
            // runs out: the line is logged then, and the backoff follows.
            self.timed_out(ctx, DIAL_TIMEOUT, vec![line], Some((sleep, KubeletTimer::Register)));
            return;
        }
        h.log(ctx, line);
        self.after(ctx, sleep, KubeletTimer::Register);
    }
}
