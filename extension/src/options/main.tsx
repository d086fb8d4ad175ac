/** Options entry. */
import '../shared/zod-setup';
import '../shared/ui/styles.css';
import { render } from 'preact';
import { WorkerClient } from '../shared/worker-client';
import { Options } from './options';

const client = new WorkerClient('options', null);
const root = document.getElementById('app');
if (root) render(<Options client={client} />, root);
client.start();
