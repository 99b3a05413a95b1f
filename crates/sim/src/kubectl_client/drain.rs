//! The reader's `kubectl cordon`, `uncordon` and `drain`, request by request and line by line as
//! kubectl 1.34 sends and prints them (`pkg/cmd/drain/drain.go`, `pkg/drain/{cordon,drain,filters}.go`).
//!
//! kubectl is a client with timers of its own: every Pod's eviction runs in its own goroutine
//! (all POSTed at once), a 429 sleeps 5 s and tries again, an accepted eviction polls the Pod every
//! second until it is gone. What kubectl prints is written as log lines: stdout as
//! [`Actor::Kubectl`], stderr as [`Actor::KubectlStderr`].

use std::sync::Arc;
use std::time::Duration;

use crate::action::DrainFlags;
use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::objects::{Object, Pod, Status};
use crate::record::Actor;
use crate::selector::query_escape;
use crate::time::{SimTime, format_go_duration};

/// How long a Pod's goroutine sleeps after a 429 (`time.Sleep(5 * time.Second)`).
pub(crate) const EVICTION_RETRY: Duration = Duration::from_secs(5);
/// `waitForDelete`'s poll interval.
pub(crate) const DELETE_POLL: Duration = Duration::from_secs(1);

/// A timer of the reader's kubectl: which drain, which Pod.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KubectlTimer {
    /// Evict the Pod again, after a 429.
    Evict { run: usize, pod: usize },
    /// `GET` the Pod again, until it is gone.
    Poll { run: usize, pod: usize },
}

/// Where one Pod of a drain is.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PodState {
    Evicting,
    Waiting,
    Done,
    Failed(String),
}

#[derive(Clone, Debug)]
struct Target {
    namespace: String,
    name: String,
    uid: String,
    state: PodState,
}

/// One `kubectl drain` in progress.
#[derive(Clone, Debug)]
struct Run {
    node: String,
    flags: DrainFlags,
    deadline: Option<SimTime>,
    pods: Vec<Target>,
    finished: bool,
}

/// The reader's kubectl: the drains it is running.
#[derive(Clone, Debug, Default)]
pub(crate) struct Kubectl {
    runs: Vec<Run>,
}

fn out<T>(ctx: &mut Ctx<'_, T>, line: String) {
    ctx.log_line(Actor::Kubectl, line);
}

fn err<T>(ctx: &mut Ctx<'_, T>, line: String) {
    ctx.log_line(Actor::KubectlStderr, line);
}

/// `kubectl cordon`/`uncordon` (`RunCordonOrUncordon`): GET the Node, PATCH it unless it is
/// already as wanted, and print what happened. Returns whether the Node could be read.
pub(crate) fn cordon<T>(node: &str, desired: bool, ctx: &mut Ctx<'_, T>) -> bool {
    let verb = if desired { "cordon" } else { "uncordon" };
    let current = match ctx.call(Actor::Kubectl, None, ApiOp::GetNode(node.to_string())) {
        Reply::Ok(Object::Node(n)) => n,
        Reply::Err(status) => {
            err(ctx, format!("Error from server ({}): {}", status.reason, status.message));
            return false;
        }
        _ => return false,
    };
    if current.spec.unschedulable == desired {
        out(ctx, format!("node/{node} already {verb}ed"));
        return true;
    }
    match ctx.call(
        Actor::Kubectl,
        None,
        ApiOp::PatchNodeUnschedulable { name: node.to_string(), unschedulable: desired },
    ) {
        Reply::Ok(_) => out(ctx, format!("node/{node} {verb}ed")),
        Reply::Err(status) => err(ctx, format!("error: unable to {verb} node \"{node}\": {}", status.message)),
        Reply::Timeout => {}
    }
    true
}

/// `GetPodsForDeletion`'s list: `resource.FollowContinue` over `GET /api/v1/pods` with the node's
/// field selector, the `--pod-selector` and `limit=--chunk-size`, one request a page, as
/// client-go's `url.Values.Encode` writes the query (keys in order: `continue`, `fieldSelector`,
/// `labelSelector`, `limit`). An error is the API server's Status.
fn list_pods<T>(node: &str, flags: &DrainFlags, ctx: &mut Ctx<'_, T>) -> Result<Vec<Arc<Pod>>, Box<Status>> {
    let selector = flags.pod_selector.selector();
    let field = query_escape(&format!("spec.nodeName={node}"));
    let labels = (!selector.is_empty()).then(|| query_escape(flags.pod_selector.as_str()));
    let limit = flags.limit();
    let mut pods = Vec::new();
    let mut token: Option<String> = None;
    loop {
        let mut query = String::new();
        if let Some(t) = &token {
            query.push_str(&format!("continue={}&", query_escape(t)));
        }
        query.push_str(&format!("fieldSelector={field}"));
        if let Some(l) = &labels {
            query.push_str(&format!("&labelSelector={l}"));
        }
        if limit > 0 {
            query.push_str(&format!("&limit={limit}"));
        }
        let page = ctx.store().list_pods(node, &selector, limit, token.as_deref());
        ctx.log_read(Actor::Kubectl, "/api/v1/pods".into(), query);
        let page = page?;
        pods.extend(page.items);
        match page.continue_token {
            Some(t) => token = Some(t),
            None => return Ok(pods),
        }
    }
}

/// What the filters decided for one Pod (`PodDeleteStatus`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Verdict {
    Delete,
    Skip,
    Warning { delete: bool, message: String },
    Error(String),
}

/// The filters in their order (`makeFilters`): skip-deleted (off by default), DaemonSet, mirror,
/// local storage, unreplicated. As `filterPods` runs them, each one's status replaces the last,
/// and the first that does not delete the Pod stops the checks: so a warning of a filter that
/// lets the Pod go (local storage with `--delete-emptydir-data`, a missing DaemonSet with
/// `--force`) is dropped when a later filter passes the Pod (the source's own TODO says so).
/// `daemonset` answers the DaemonSet GET.
pub(crate) fn filter(pod: &Pod, flags: &DrainFlags, daemonset: impl FnOnce(&str) -> Result<(), String>) -> Verdict {
    let finished = matches!(&*pod.status.phase, "Succeeded" | "Failed");
    let controller = pod.controller();
    let daemonset_filter = || match controller {
        Some(c) if c.kind == "DaemonSet" && !finished => match daemonset(&c.name) {
            Err(message) if flags.force && message.ends_with("not found") => Verdict::Warning { delete: true, message },
            Err(message) => Verdict::Error(message),
            Ok(()) if !flags.ignore_daemonsets => {
                Verdict::Error("DaemonSet-managed Pods (use --ignore-daemonsets to ignore)".into())
            }
            Ok(()) => Verdict::Warning { delete: false, message: "ignoring DaemonSet-managed Pods".into() },
        },
        _ => Verdict::Delete,
    };
    let mirror_filter = || {
        if pod.metadata.annotations.contains_key("kubernetes.io/config.mirror") {
            Verdict::Skip
        } else {
            Verdict::Delete
        }
    };
    let local_storage_filter = || match (pod.has_local_storage() && !finished, flags.delete_emptydir_data) {
        (false, _) => Verdict::Delete,
        (true, false) => Verdict::Error("Pods with local storage (use --delete-emptydir-data to override)".into()),
        (true, true) => Verdict::Warning { delete: true, message: "deleting Pods with local storage".into() },
    };
    let unreplicated_filter = || match (controller.is_none() && !finished, flags.force) {
        (false, _) => Verdict::Delete,
        (true, false) => {
            Verdict::Error("cannot delete Pods that declare no controller (use --force to override)".into())
        }
        (true, true) => Verdict::Warning { delete: true, message: "deleting Pods that declare no controller".into() },
    };
    let mut status = daemonset_filter();
    for next in [&mirror_filter as &dyn Fn() -> Verdict, &local_storage_filter, &unreplicated_filter] {
        if !status.deletes() {
            break;
        }
        status = next();
    }
    status
}

impl Verdict {
    /// `PodDeleteStatus.Delete`.
    fn deletes(&self) -> bool {
        matches!(self, Verdict::Delete | Verdict::Warning { delete: true, .. })
    }
}

/// Groups messages with their Pods in order of first appearance (kubectl's map has no order).
fn grouped(items: &[(String, String)]) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (message, pod) in items {
        match groups.iter_mut().find(|(m, _)| m == message) {
            Some((_, pods)) => pods.push(pod.clone()),
            None => groups.push((message.clone(), vec![pod.clone()])),
        }
    }
    groups
}

/// `utilerrors.NewAggregate(errs).Error()`.
fn aggregate(errors: &[String]) -> String {
    if errors.len() == 1 { errors[0].clone() } else { format!("[{}]", errors.join(", ")) }
}

impl Kubectl {
    /// `kubectl drain NODE [flags]`: cordon, list, filter, then evict (or delete) every Pod at once.
    pub(crate) fn drain(&mut self, node: &str, flags: DrainFlags, ctx: &mut Ctx<'_, KubectlTimer>) {
        if !cordon(node, true, ctx) {
            return;
        }
        let pods = match list_pods(node, &flags, ctx) {
            Ok(pods) => pods,
            Err(status) => {
                err(
                    ctx,
                    format!(
                        "error: unable to drain node \"{node}\" due to error: {}, continuing command...",
                        status.message
                    ),
                );
                err(ctx, "There are pending nodes to be drained:".into());
                err(ctx, format!(" {node}"));
                err(ctx, status.message);
                return;
            }
        };
        let mut errors: Vec<(String, String)> = Vec::new();
        let mut warnings: Vec<(String, String)> = Vec::new();
        let mut targets: Vec<Target> = Vec::new();
        for pod in &pods {
            let key = format!("{}/{}", pod.metadata.namespace, pod.metadata.name);
            let namespace = pod.metadata.namespace.to_string();
            let verdict = filter(pod, &flags, |name| {
                let get = ApiOp::GetDaemonSet { namespace: namespace.clone(), name: name.to_string() };
                match ctx.call(Actor::Kubectl, None, get) {
                    Reply::Err(status) => Err(status.message),
                    _ => Ok(()),
                }
            });
            let delete = match verdict {
                Verdict::Delete => true,
                Verdict::Skip => false,
                Verdict::Warning { delete, message } => {
                    warnings.push((message, key));
                    delete
                }
                Verdict::Error(message) => {
                    errors.push((message, key));
                    false
                }
            };
            if delete {
                targets.push(Target {
                    namespace: pod.metadata.namespace.to_string(),
                    name: pod.metadata.name.to_string(),
                    uid: pod.metadata.uid.to_string(),
                    state: PodState::Evicting,
                });
            }
        }
        if !errors.is_empty() {
            let errs: Vec<String> = grouped(&errors)
                .into_iter()
                .map(|(m, pods)| {
                    let pods = pods.join(", ");
                    if m.to_lowercase().starts_with("cannot delete") {
                        format!("{m}: {pods}")
                    } else {
                        format!("cannot delete {m}: {pods}")
                    }
                })
                .collect();
            let e = aggregate(&errs);
            err(ctx, format!("error: unable to drain node \"{node}\" due to error: {e}, continuing command..."));
            err(ctx, "There are pending nodes to be drained:".into());
            err(ctx, format!(" {node}"));
            // cmdutil.CheckErr prints an aggregate's one error as it is, with no `error: `.
            err(ctx, e);
            return;
        }
        if !warnings.is_empty() {
            let w: Vec<String> =
                grouped(&warnings).into_iter().map(|(m, pods)| format!("{m}: {}", pods.join(", "))).collect();
            err(ctx, format!("Warning: {}", w.join("; ")));
        }
        let run = self.runs.len();
        let deadline = flags.timeout_secs.filter(|s| *s > 0).map(|s| ctx.now + Duration::from_secs(s.into()));
        self.runs.push(Run { node: node.to_string(), flags, deadline, pods: targets, finished: false });
        if self.runs[run].pods.is_empty() {
            self.finish(run, ctx);
            return;
        }
        if flags.disable_eviction {
            self.delete_all(run, ctx);
            return;
        }
        // CheckEvictionSupport: the v1 resource list names `pods/eviction`.
        ctx.log_read(Actor::Kubectl, "/api/v1".into(), "");
        for pod in 0..self.runs[run].pods.len() {
            self.evict(run, pod, ctx);
        }
    }

    /// `--disable-eviction`: a DELETE for each Pod, then one wait for them all.
    fn delete_all(&mut self, run: usize, ctx: &mut Ctx<'_, KubectlTimer>) {
        let grace = self.runs[run].flags.grace_period.map(i64::from);
        for pod in 0..self.runs[run].pods.len() {
            let t = &self.runs[run].pods[pod];
            let op = ApiOp::DeletePod {
                namespace: t.namespace.clone(),
                name: t.name.clone(),
                grace_seconds: grace,
                precondition_uid: None,
                background: false,
            };
            ctx.call(Actor::Kubectl, None, op);
            self.runs[run].pods[pod].state = PodState::Waiting;
        }
        for pod in 0..self.runs[run].pods.len() {
            self.poll(run, pod, ctx);
        }
    }

    /// One Pod's goroutine: print, check the global timeout, POST the Eviction.
    fn evict(&mut self, run: usize, pod: usize, ctx: &mut Ctx<'_, KubectlTimer>) {
        let r = &self.runs[run];
        let t = r.pods[pod].clone();
        out(ctx, format!("evicting pod {}/{}", t.namespace, t.name));
        if let Some(deadline) = r.deadline
            && ctx.now >= deadline
        {
            let timeout = format_go_duration(Duration::from_secs(r.flags.timeout_secs.unwrap_or(0).into()));
            let why = format!(
                "error when evicting pods/\"{}\" -n \"{}\": global timeout reached: {timeout}",
                t.name, t.namespace
            );
            self.fail(run, pod, why, ctx);
            return;
        }
        let grace = r.flags.grace_period.map(i64::from);
        let op = ApiOp::EvictPod { namespace: t.namespace.clone(), name: t.name.clone(), grace_seconds: grace };
        match ctx.call(Actor::Kubectl, None, op) {
            Reply::Ok(_) => {
                self.runs[run].pods[pod].state = PodState::Waiting;
                self.poll(run, pod, ctx);
            }
            Reply::Err(status) if status.code == 404 => self.done(run, pod, None, ctx),
            Reply::Err(status) if status.code == 429 => {
                err(
                    ctx,
                    format!(
                        "error when evicting pods/\"{}\" -n \"{}\" (will retry after 5s): {}",
                        t.name, t.namespace, status.message
                    ),
                );
                ctx.after(EVICTION_RETRY, KubectlTimer::Evict { run, pod });
            }
            Reply::Err(status) => {
                let why = format!("error when evicting pods/\"{}\" -n \"{}\": {}", t.name, t.namespace, status.message);
                self.fail(run, pod, why, ctx);
            }
            Reply::Timeout => {}
        }
    }

    /// `waitForDelete`: GET the Pod; gone (404, or another uid) means evicted.
    fn poll(&mut self, run: usize, pod: usize, ctx: &mut Ctx<'_, KubectlTimer>) {
        let t = self.runs[run].pods[pod].clone();
        let op = ApiOp::GetPod { namespace: t.namespace.clone(), name: t.name.clone() };
        let gone = match ctx.call(Actor::Kubectl, None, op) {
            Reply::Err(status) => status.code == 404,
            Reply::Ok(Object::Pod(p)) => p.metadata.uid != t.uid,
            _ => false,
        };
        if gone {
            let verb = if self.runs[run].flags.disable_eviction { "deleted" } else { "evicted" };
            self.done(run, pod, Some(verb), ctx);
        } else {
            ctx.after(DELETE_POLL, KubectlTimer::Poll { run, pod });
        }
    }

    fn done(&mut self, run: usize, pod: usize, verb: Option<&str>, ctx: &mut Ctx<'_, KubectlTimer>) {
        if let Some(verb) = verb {
            out(ctx, format!("pod/{} {verb}", self.runs[run].pods[pod].name));
        }
        self.runs[run].pods[pod].state = PodState::Done;
        self.maybe_finish(run, ctx);
    }

    fn fail(&mut self, run: usize, pod: usize, why: String, ctx: &mut Ctx<'_, KubectlTimer>) {
        self.runs[run].pods[pod].state = PodState::Failed(why);
        self.maybe_finish(run, ctx);
    }

    fn maybe_finish(&mut self, run: usize, ctx: &mut Ctx<'_, KubectlTimer>) {
        let r = &self.runs[run];
        if !r.finished && r.pods.iter().all(|p| matches!(p.state, PodState::Done | PodState::Failed(_))) {
            self.finish(run, ctx);
        }
    }

    /// The end of `deleteOrEvictPodsSimple` and `RunDrain`.
    fn finish(&mut self, run: usize, ctx: &mut Ctx<'_, KubectlTimer>) {
        self.runs[run].finished = true;
        let node = self.runs[run].node.clone();
        let errors: Vec<String> = self.runs[run]
            .pods
            .iter()
            .filter_map(|p| match &p.state {
                PodState::Failed(why) => Some(why.clone()),
                _ => None,
            })
            .collect();
        if errors.is_empty() {
            out(ctx, format!("node/{node} drained"));
            return;
        }
        let e = aggregate(&errors);
        let pending: Vec<String> = ctx
            .store()
            .pods_on(&node)
            .filter(|p| p.controller().is_none_or(|c| c.kind != "DaemonSet"))
            .map(|p| p.metadata.name.to_string())
            .collect();
        if !pending.is_empty() {
            err(ctx, format!("There are pending pods in node \"{node}\" when an error occurred: {e}"));
            for p in pending {
                err(ctx, format!("pod/{p}"));
            }
        }
        err(ctx, format!("error: unable to drain node \"{node}\" due to error: {e}, continuing command..."));
        err(ctx, "There are pending nodes to be drained:".into());
        err(ctx, format!(" {node}"));
        err(ctx, e);
    }

    /// Input: one of kubectl's timers.
    pub(crate) fn on_timer(&mut self, timer: KubectlTimer, ctx: &mut Ctx<'_, KubectlTimer>) {
        match timer {
            KubectlTimer::Evict { run, pod } => self.evict(run, pod, ctx),
            KubectlTimer::Poll { run, pod } => self.poll(run, pod, ctx),
        }
    }
}
