/** Moving between the console's pages with the History API, so every page has an address to bookmark or share. */
import type { ComponentChildren } from 'preact';

/** Goes to a path of the console without reloading the page. */
export function navigate(path: string): void {
  history.pushState(null, '', path);
  dispatchEvent(new PopStateEvent('popstate'));
}

/** A link to a page of the console. */
export function Link(props: { href: string; children: ComponentChildren; class?: string }): preact.JSX.Element {
  const go = (event: MouseEvent): void => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={props.href} onClick={go} class={props.class}>
      {props.children}
    </a>
  );
}
