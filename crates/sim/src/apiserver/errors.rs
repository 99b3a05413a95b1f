//! The API server's error answers (`k8s.io/apimachinery/pkg/api/errors`), each worded from the
//! kind's resource and group as the real one words it.

use crate::objects::{Kind, Status};
use crate::strings::cat;

/// `errors.NewNotFound`: 404.
pub(super) fn not_found(kind: Kind, name: &str) -> Box<Status> {
    let (group, resource) = (kind.group(), kind.plural());
    let dot = if group.is_empty() { "" } else { "." };
    let message = cat!(resource, dot, group, " \"", name, "\" not found");
    Box::new(Status::failure(404, "NotFound", message, group, resource, name))
}

/// `errors.NewAlreadyExists`: 409.
pub(super) fn already_exists(kind: Kind, name: &str) -> Box<Status> {
    let message = format!("{} \"{name}\" already exists", kind.group_resource());
    Box::new(Status::failure(409, "AlreadyExists", message, kind.group(), kind.plural(), name))
}

/// `errors.NewForbidden`: 403, with why.
pub(super) fn forbidden(kind: Kind, name: &str, why: String) -> Box<Status> {
    let message = format!("{} \"{name}\" is forbidden: {why}", kind.group_resource());
    Box::new(Status::failure(403, "Forbidden", message, kind.group(), kind.plural(), name))
}

/// NodeRestriction's answer to a kubelet touching another node's Lease.
pub(super) fn lease_forbidden(name: &str) -> Box<Status> {
    forbidden(Kind::Lease, name, "can only access node lease with the same name as the requesting node".into())
}

/// `errors.NewConflict` for a write whose resourceVersion is not the stored one: 409.
pub(super) fn conflict(kind: Kind, name: &str) -> Box<Status> {
    let message = format!(
        "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to \
         the latest version and try again",
        kind.group_resource()
    );
    Box::new(Status::failure(409, "Conflict", message, kind.group(), kind.plural(), name))
}

/// `errors.NewMethodNotSupported`: 405.
pub(super) fn method_not_supported(kind: Kind, verb: &str) -> Box<Status> {
    let message = format!("{verb} is not supported on resources of kind {:?}", kind.group_resource());
    Box::new(Status::failure(405, "MethodNotAllowed", message, kind.group(), kind.plural(), ""))
}
