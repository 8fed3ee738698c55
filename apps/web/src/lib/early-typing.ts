/**
 * What a visitor types or ticks in a prerendered page before React has taken it over (src/
 * prerender): hydrating sets each field back to the value in its state, so a caption typed on
 * a slow phone while the app loads would be wiped. It is noted here and handed to React, as the
 * user's own input, once the page is live (ToolFrame). Files have their own path: early-files.
 */
type Field = HTMLInputElement | HTMLTextAreaElement;

const CHECKABLE = new Set(['checkbox', 'radio']);
const typed = new Map<Field, string | boolean>();
/** The fields of the page as it came from the build: only what is typed into these is noted. */
let prerendered = new Set<Field>();

function note(field: Field) {
  if (!prerendered.has(field) || field.type === 'file') return;
  // The latest goes last, so of a radio group the one picked last is picked again last.
  typed.delete(field);
  typed.set(field, CHECKABLE.has(field.type) ? (field as HTMLInputElement).checked : field.value);
}

const onEvent = (event: Event) => note(event.target as Field);

/** Notes what was typed already (before this script ran), and listens for more. */
export function listenForEarlyTyping() {
  prerendered = new Set(document.querySelectorAll<Field>('#root input, #root textarea'));
  for (const field of prerendered) {
    const changed = CHECKABLE.has(field.type)
      ? (field as HTMLInputElement).checked !== (field as HTMLInputElement).defaultChecked
      : field.value !== field.defaultValue;
    if (changed) note(field);
  }
  document.addEventListener('input', onEvent, true);
  document.addEventListener('change', onEvent, true);
}

/** Gives React what was typed into fields it has now hydrated; called once, then stops. */
export function replayEarlyTyping() {
  document.removeEventListener('input', onEvent, true);
  document.removeEventListener('change', onEvent, true);
  for (const [field, value] of typed) {
    // A signed-in reader's page is drawn afresh: the fields typed into are gone.
    if (!field.isConnected) continue;
    // Hydrating leaves the words on screen but not in React's state, and React only calls a
    // field's onChange when its value differs from the one it last noted. So the field is first
    // set through its own setter (which React notes) to something else, then given the user's
    // value as a user would: by a click, or by the prototype's setter and an input event.
    if (typeof value === 'boolean') {
      (field as HTMLInputElement).checked = !value;
      field.click();
      continue;
    }
    field.value = value === '' ? ' ' : '';
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(field), 'value')?.set?.call(field, value);
    field.dispatchEvent(new Event('input', { bubbles: true }));
  }
  typed.clear();
  prerendered.clear();
}
