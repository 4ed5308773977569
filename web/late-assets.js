// Assets the module gets after its first frame: the shipped trained model (which only "Trained
// model" and two lessons need), the text vocabulary (tokenizers/text.json, which only models trained
// on real text read) and the real-text model (models/text.safetensors) are fetched once the lab is
// on screen and copied into the module. The lab's ready promise waits for it, so nothing asks for it before it is there;
// a failure is reported in the console and the model then says it is missing when asked for.
// The real-text sample (corpus/, about 360 KB compressed) is fetched only when the module asks for
// it (a learner runs the head-count experiment on real text): headlabLoadTextCorpus.
'use strict';
(function () {
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
      const buffer = Module._malloc(bytes.length) >>> 0;
      if (!buffer) throw new Error('out of memory');
      try {
        Module.HEAPU8.set(bytes, buffer >>> 0);
        Module._headlab_add_text_model(buffer, bytes.length);
      } finally {
        Module._free(buffer);
      }
    } catch (error) {
      console.warn('HeadLab: the real-text model could not be loaded: ' + (error.message || error));
    }
  };
})();
