//! The reader's `kubectl delete pod NAME [-n NS]`, as kubectl 1.32 sends and prints it
//! (`pkg/cmd/delete/delete.go` `DeleteResult`, `pkg/cmd/wait/delete.go` `IsDeleted`): the DELETE
//! with its `DeleteOptions`, `pod "NAME" deleted`, then (unless `--wait=false`) the wait: a GET of
//! the Pod, and while it is still there (same uid) a list and a watch of it by name, which stays
//! open until the Pod's `DELETED` event. The command ends when the Pod is gone, which the log's
//! own Pod deletion shows: kubectl prints nothing more.

use crate::action::DeleteFlags;
use crate::apiserver::ApiOp;
use crate::ctx::{Ctx, Reply};
use crate::objects::Object;
use crate::record::Actor;
use crate::selector::query_escape;

/// `reflector.minWatchTimeout`: a watch asks for a server timeout of 5 to 10 minutes, at random.
const MIN_WATCH_TIMEOUT_SECS: u64 = 300;

/// What `DeleteOptions.Validate` prints for `--force` with a zero grace period.
pub(crate) const FORCE_WARNING: &str = "Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.";

/// `kubectl delete pod NAME -n NAMESPACE` with `flags`.
pub(crate) fn delete_pod<T>(namespace: &str, name: &str, flags: DeleteFlags, ctx: &mut Ctx<'_, T>) {
    let grace = flags.effective_grace();
    if grace == Some(0) && flags.force {
        ctx.log_line(Actor::KubectlStderr, FORCE_WARNING.into());
    }
    let op = ApiOp::DeletePod {
        namespace: namespace.to_string(),
        name: name.to_string(),
        grace_seconds: grace.map(i64::from),
        precondition_uid: None,
        background: true,
    };
    let uid = match ctx.call(Actor::Kubectl, None, op) {
        Reply::Ok(Object::Pod(p)) => p.metadata.uid.clone(),
        Reply::Ok(_) | Reply::Timeout => return,
        Reply::Err(status) => {
            ctx.log_line(Actor::KubectlStderr, format!("Error from server ({}): {}", status.reason, status.message));
            return;
        }
    };
    let done = if grace == Some(0) { "force deleted" } else { "deleted" };
    ctx.log_line(Actor::Kubectl, format!("pod \"{name}\" {done}"));
    if flags.no_wait {
        return;
    }
    // `IsDeleted`: gone already (404), or replaced (another uid), ends the wait.
    let get = ApiOp::GetPod { namespace: namespace.to_string(), name: name.to_string() };
    match ctx.call(Actor::Kubectl, None, get) {
        Reply::Ok(Object::Pod(p)) if p.metadata.uid == uid => {}
        _ => return,
    }
    // `watchtools.UntilWithSync`: the informer's reflector lists (from the watch cache,
    // `resourceVersion=0`), then watches from the list's resourceVersion.
    let path = format!("/api/v1/namespaces/{namespace}/pods");
    let field = query_escape(&format!("metadata.name={name}"));
    ctx.log_read(Actor::Kubectl, path.clone(), format!("fieldSelector={field}&limit=500&resourceVersion=0"));
    let rv = ctx.store().resource_version();
    let timeout = MIN_WATCH_TIMEOUT_SECS + ctx.rng.below(MIN_WATCH_TIMEOUT_SECS);
    ctx.log_read(
        Actor::Kubectl,
        path,
        format!(
            "allowWatchBookmarks=true&fieldSelector={field}&resourceVersion={rv}&timeoutSeconds={timeout}&watch=true"
        ),
    );
}
