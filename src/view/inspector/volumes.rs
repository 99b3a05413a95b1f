//! Below the Pods tab's table: the VolumeAttachments (`kubectl get volumeattachments`' cells), when
//! there are any.

use super::markup::{headers, state};
use crate::i18n::{Key, Lang};
use crate::sim::Snapshot;
use crate::view::html::{cat, escape};

/// One VolumeAttachment row: NAME, PV, NODE, ATTACHED, AGE.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AttachmentRow {
    pub name: String,
    pub pv: String,
    pub node: String,
    pub attached: String,
    pub age: String,
}

/// Every VolumeAttachment at the snapshot's instant, by name.
pub fn attachment_rows(snapshot: &Snapshot<'_>) -> Vec<AttachmentRow> {
    let now = snapshot.wall();
    snapshot
        .volume_attachments()
        .iter()
        .map(|va| {
            let mut cells =
                crate::render::kubectl_printer::get_storage::volume_attachment_row(va, now).cells.into_iter();
            let mut next = || cells.next().unwrap_or_default();
            let (name, _attacher, pv, node, attached, age) = (next(), next(), next(), next(), next(), next());
            AttachmentRow { name, pv, node, attached, age }
        })
        .collect()
}

/// The VolumeAttachments table, or nothing when there are none.
pub fn attachments_markup(rows: &[AttachmentRow], lang: Lang) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut o = String::new();
    cat(&mut o, &[r#"<h3 class="attachments">"#, &escape(lang.text(Key::VolumeAttachments)), "</h3>"]);
    o.push_str(r#"<div class="table-scroll"><table class="attachments"><tbody><tr class="head">"#);
    headers(&mut o, lang, &[Key::ColName, Key::ColPv, Key::ColNode, Key::ColAttached, Key::ColAge], false);
    o.push_str("</tr>");
    for r in rows {
        cat(&mut o, &[r#"<tr><th scope="row">"#, &escape(&r.name), "</th><td>", &escape(&r.pv), "</td><td>"]);
        cat(&mut o, &[&escape(&r.node), "</td><td>"]);
        state(&mut o, if r.attached == "true" { "ok" } else { "unknown" }, &r.attached);
        cat(&mut o, &["</td><td>", &escape(&r.age), "</td></tr>"]);
    }
    o.push_str("</tbody></table></div>");
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::{Action, ActionKind, Chapter, Config, SimTime, Timeline};

    #[test]
    fn attachments_show_under_the_pods_only_when_there_are_some() {
        let mut tl = Timeline::with_actions(
            Chapter::NodeFailure,
            Config::default(),
            &[Action::new(ActionKind::CreateStatefulSet, SimTime::from_secs(30))],
        );
        tl.run_until(SimTime::from_secs(60));
        assert_eq!(attachments_markup(&attachment_rows(&tl.at(SimTime::from_secs(20))), Lang::En), "");
        let rows = attachment_rows(&tl.at(SimTime::from_secs(60)));
        assert_eq!(rows.len(), 1);
        assert!(rows[0].name.starts_with("csi-") && rows[0].pv.starts_with("pvc-"), "{rows:?}");
        assert_eq!(rows[0].attached, "true");
        let html = attachments_markup(&rows, Lang::Ja);
        assert!(html.contains("VolumeAttachment") && html.contains(&rows[0].node), "{html}");
    }
}
