//! `kubectl certificate approve|deny NAME` and `kubectl -n kube-system delete secret
//! bootstrap-token-<id>`: the command lines read as kubectl 1.32 reads them, made into the
//! simulation's `approve-csr`, `deny-csr` and `delete-bootstrap-token` actions.

use super::Output;
use super::change::{Change, DELETE_FLAGS};
use super::command::{fail, parse_flags};
use crate::sim::ActionKind;
use crate::sim::objects::Kind;

/// `kubectl certificate approve`'s and `deny`'s flags (`--force` is not simulated).
const CERTIFICATE_FLAGS: &str = "_b-allow-missing-template-keys fv-filename _b-force kv-kustomize ov-output \
Rb-recursive _b-show-managed-fields _v-template";

/// Parses `certificate approve|deny NAME`: `None` if `args` is another command.
pub fn parse(args: &[String]) -> Option<Result<Change, Output>> {
    let at = args.iter().position(|a| !a.starts_with('-'))?;
    if args[at] != "certificate" {
        return None;
    }
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    Some(parse_flags("certificate", CERTIFICATE_FLAGS, &rest).and_then(|p| {
        let (verb, names) = match p.args.split_first() {
            Some((verb, names)) if verb == "approve" || verb == "deny" => (verb.clone(), names.to_vec()),
            _ => {
                return Err(fail(
                    "error: nodeline's kubectl runs certificate approve NAME and certificate deny NAME only".into(),
                ));
            }
        };
        if p.is_set("help") {
            return Err(fail(format!(
                "error: nodeline's kubectl has no help text for certificate {verb}: see kubectl certificate {verb} --help on a real cluster"
            )));
        }
        let name = match names.as_slice() {
            [] => {
                return Err(fail("error: one or more CSRs must be specified as <name> or -f <filename>".into()));
            }
            [name] => name.clone(),
            _ => return Err(fail(format!("error: nodeline's kubectl can {verb} one CSR at a time"))),
        };
        let kind = if verb == "approve" { ActionKind::ApproveCsr } else { ActionKind::DenyCsr };
        Ok(Change { kind, node: name, taint: None, ignore_not_found: false })
    }))
}

/// Parses `delete secret NAME -n kube-system` (also `secrets`, `secret/NAME`): `None` when `args`
/// deletes something else. Only the bootstrap token's Secret is simulated.
pub fn parse_delete_secret(args: &[String]) -> Option<Result<Change, Output>> {
    let at = args.iter().position(|a| a == "delete")?;
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    let p = parse_flags("delete", DELETE_FLAGS, &rest).ok()?;
    let is_secret = |r: &str| Kind::from_resource_arg(r) == Some(Kind::Secret);
    let names: Vec<String> = match p.args.split_first() {
        Some((resource, names)) if is_secret(resource) => names.to_vec(),
        Some((one, [])) => match one.split_once('/') {
            Some((resource, name)) if is_secret(resource) => vec![name.to_string()],
            _ => return None,
        },
        _ => return None,
    };
    let token = format!("bootstrap-token-{}", crate::sim::machine::BOOTSTRAP_TOKEN_ID);
    Some(match (names.as_slice(), p.value("namespace")) {
        ([name], Some("kube-system")) if *name == token => Ok(Change {
            kind: ActionKind::DeleteBootstrapToken,
            node: String::new(),
            taint: None,
            ignore_not_found: false,
        }),
        ([], _) => Err(fail("error: resource(s) were provided, but no name was specified".into())),
        _ => Err(fail(format!(
            "error: nodeline's kubectl deletes one Secret: kubectl -n kube-system delete secret {token}"
        ))),
    })
}

/// Parses `delete clusterrolebinding kubeadm:node-autoapprove-bootstrap` (also
/// `clusterrolebindings`, `…rbac.authorization.k8s.io`, `TYPE/NAME`): `None` when `args` deletes
/// something else. Only that binding is simulated.
pub fn parse_delete_binding(args: &[String]) -> Option<Result<Change, Output>> {
    let at = args.iter().position(|a| a == "delete")?;
    let rest: Vec<String> = args[..at].iter().chain(&args[at + 1..]).cloned().collect();
    let p = parse_flags("delete", DELETE_FLAGS, &rest).ok()?;
    let is_binding = |r: &str| {
        matches!(
            r.to_ascii_lowercase().as_str(),
            "clusterrolebinding"
                | "clusterrolebindings"
                | "clusterrolebinding.rbac.authorization.k8s.io"
                | "clusterrolebindings.rbac.authorization.k8s.io"
        )
    };
    let names: Vec<String> = match p.args.split_first() {
        Some((resource, names)) if is_binding(resource) => names.to_vec(),
        Some((one, [])) => match one.split_once('/') {
            Some((resource, name)) if is_binding(resource) => vec![name.to_string()],
            _ => return None,
        },
        _ => return None,
    };
    let binding = crate::sim::NODE_AUTOAPPROVE_BINDING;
    Some(match names.as_slice() {
        [name] if name == binding => Ok(Change {
            kind: ActionKind::DeleteAutoApproveBinding,
            node: String::new(),
            taint: None,
            ignore_not_found: false,
        }),
        [] => Err(fail("error: resource(s) were provided, but no name was specified".into())),
        _ => Err(fail(format!("error: nodeline's kubectl deletes one ClusterRoleBinding: {binding}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::SimTime;

    fn words(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn certificate_commands_become_actions() {
        let c = parse(&words("certificate approve node-csr-Ab_9")).unwrap().unwrap();
        assert_eq!(c.action(SimTime::from_secs(60)).to_string(), "approve-csr:node-csr-Ab_9@1m0s");
        let c = parse(&words("certificate deny csr-x")).unwrap().unwrap();
        assert_eq!(c.kind, ActionKind::DenyCsr);
        assert_eq!(parse(&words("get csr")), None);
        assert_eq!(
            parse(&words("certificate approve")).unwrap().unwrap_err().stderr,
            "error: one or more CSRs must be specified as <name> or -f <filename>\n"
        );
        let d = parse_delete_secret(&words("-n kube-system delete secret bootstrap-token-07401b")).unwrap().unwrap();
        assert_eq!(d.action(SimTime::ZERO).to_string(), "delete-bootstrap-token@0s");
        assert!(parse_delete_secret(&words("delete secret other -n kube-system")).unwrap().is_err());
        assert_eq!(parse_delete_secret(&words("delete pod web")), None);
        let b = parse_delete_binding(&words("delete clusterrolebinding kubeadm:node-autoapprove-bootstrap")).unwrap();
        assert_eq!(b.unwrap().action(SimTime::ZERO).to_string(), "delete-autoapprove-binding@0s");
        assert!(parse_delete_binding(&words("delete clusterrolebinding other")).unwrap().is_err());
    }
}
