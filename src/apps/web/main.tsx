// Entry point of the browser bundle.
import { render } from 'preact';
import './styles.css';
import { App } from './app/app.tsx';

const root = document.getElementById('app');
if (root) render(<App />, root);
