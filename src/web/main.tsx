/** The console's entry: draws the app into the page's #app. */
import { render } from 'preact';
import { App } from './app.tsx';

const root = document.getElementById('app');
if (root !== null) render(<App />, root);
