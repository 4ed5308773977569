// Assets the module gets after its first frame: the shipped trained model (which only "Trained
// model" and two lessons need), the text vocabulary (tokenizers/text.json, which only models trained
// on real text read) and the real-text model (models/text.safetensors) are fetched once the lab is
// on screen and copied into the module. The lab's ready promise waits for it, so nothing asks for it before it is there;
// a failure is reported in the console and the model then says it is missing when asked for.
// The real-text sample (corpus/, about 360 KB compressed) is fetched only when the module asks for
// it (a learner trains on real text): headlabLoadTextCorpus; so are the real-text models trained
// with softmax + 1 and sigmoid (lesson 23): headlabLoadTextModel.
'use strict';
(function () {
  // Copies `bytes` into the module's heap for the length of `use(pointer)`.
  const withBytesInModule = (bytes, use) => {
    const buffer = Module._malloc(Math.max(1, bytes.length)) >>> 0;
    if (!buffer) throw new Error('out of memory');
    try {
      Module.HEAPU8.set(bytes, buffer);
      return use(buffer);
    } finally {
      Module._free(buffer);
    }
  };

  const modelLoads = {};
  window.headlabLoadTextModel = (attention) => {
    if (modelLoads[attention]) return modelLoads[attention];
    modelLoads[attention] = (async () => {
      const url = 'models/text-' + attention + '.safetensors';
      try {
        await window.headlab.ready;  // the text vocabulary is in by then
        const response = await fetch(url);
        if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
        const bytes = new Uint8Array(await response.arrayBuffer());
        const name = new TextEncoder().encode(attention + '\0');
        withBytesInModule(name, (namePointer) => withBytesInModule(bytes, (pointer) =>
          Module._headlab_add_text_model_trained_with(namePointer, pointer, bytes.length)));
      } catch (error) {
        const reason = String(error.message || error);
        console.warn('HeadLab: the real-text model (' + attention + ') could not be loaded: ' + reason);
        window.headlab._callWithString('headlab_text_model_failed', attention + '\n' + reason);
        delete modelLoads[attention];  // asking again tries again
      }
    })();
    return modelLoads[attention];
  };

  let corpusLoad = null;
  window.headlabLoadTextCorpus = () => {
    if (corpusLoad) return corpusLoad;
    corpusLoad = (async () => {
      try {
        await window.headlab.ready;  // the text vocabulary is in by then
        const texts = await Promise.all(['corpus/sample.train.txt', 'corpus/sample.heldout.txt'].map(async (url) => {
          const response = await fetch(url);
          if (!response.ok) throw new Error(url + ': HTTP ' + response.status);
          return response.text();
        }));
        const refusal = window.headlab._callWithStrings('headlab_set_text_corpus', texts[0], texts[1]);
        if (refusal) throw new Error(refusal);
      } catch (error) {
        const reason = String(error.message || error);
        console.warn('HeadLab: the text sample could not be loaded: ' + reason);
        window.headlab._callWithString('headlab_text_corpus_failed', reason);
        corpusLoad = null;  // asking again tries again
      }
    })();
    return corpusLoad;
  };

  window.headlabLoadLateAssets = async () => {
    try {
      const response = await fetch('models/trained.json');
      if (!response.ok) throw new Error('models/trained.json: HTTP ' + response.status);
      window.headlab._callWithString('headlab_add_trained_model', await response.text());
    } catch (error) {
      console.warn('HeadLab: the trained model could not be loaded: ' + (error.message || error));
    }
    // HeadLab's own BPE vocabulary, for the models trained on real text (assets/models/text*).
    try {
      const response = await fetch('tokenizers/text.json');
      if (!response.ok) throw new Error('tokenizers/text.json: HTTP ' + response.status);
      const refusal = window.headlab._callWithString('headlab_set_text_tokenizer', await response.text());
      if (refusal) throw new Error(refusal);
    } catch (error) {
      console.warn('HeadLab: the text vocabulary could not be loaded: ' + (error.message || error));
    }
    // The real-text model (assets/models/text.safetensors), bytes copied into the module's heap.
    try {
      const response = await fetch('models/text.safetensors');
      if (!response.ok) throw new Error('models/text.safetensors: HTTP ' + response.status);
      const bytes = new Uint8Array(await response.arrayBuffer());
      withBytesInModule(bytes, (pointer) => Module._headlab_add_text_model(pointer, bytes.length));
    } catch (error) {
      console.warn('HeadLab: the real-text model could not be loaded: ' + (error.message || error));
    }
  };
})();
